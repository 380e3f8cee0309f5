import { contractSuite } from "./suites/contract.js";
import { fetchUnderTest } from "./suites/transport.js";

contractSuite(fetchUnderTest);
