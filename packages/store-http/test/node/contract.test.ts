import "../../src/index-node.js";
import { contractSuite } from "../suites/contract.js";
import { nodeHttpUnderTest } from "../suites/transport.js";

contractSuite(nodeHttpUnderTest);
