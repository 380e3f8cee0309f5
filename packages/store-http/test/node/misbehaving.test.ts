import "../../src/index-node.js";
import { misbehavingSuite } from "../suites/misbehaving.js";
import { nodeHttpUnderTest } from "../suites/transport.js";

misbehavingSuite(nodeHttpUnderTest);
