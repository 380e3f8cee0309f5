import { byteSourceSuite } from "./suites/byte-source.js";
import { fetchUnderTest } from "./suites/transport.js";

byteSourceSuite(fetchUnderTest);
