import { redirectsSuite } from "./suites/redirects.js";
import { fetchUnderTest } from "./suites/transport.js";

redirectsSuite(fetchUnderTest);
