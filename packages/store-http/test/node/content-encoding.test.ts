import "../../src/index-node.js";
import { contentEncodingSuite } from "../suites/content-encoding.js";
import { nodeHttpUnderTest } from "../suites/transport.js";

contentEncodingSuite(nodeHttpUnderTest);
