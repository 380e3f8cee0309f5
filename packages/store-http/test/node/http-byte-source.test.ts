import "../../src/index-node.js";
import { byteSourceSuite } from "../suites/byte-source.js";
import { nodeHttpUnderTest } from "../suites/transport.js";

byteSourceSuite(nodeHttpUnderTest);
