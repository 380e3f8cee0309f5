import { contentEncodingSuite } from "./suites/content-encoding.js";
import { fetchUnderTest } from "./suites/transport.js";

contentEncodingSuite(fetchUnderTest);
