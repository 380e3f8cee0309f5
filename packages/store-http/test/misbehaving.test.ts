import { misbehavingSuite } from "./suites/misbehaving.js";
import { fetchUnderTest } from "./suites/transport.js";

misbehavingSuite(fetchUnderTest);
