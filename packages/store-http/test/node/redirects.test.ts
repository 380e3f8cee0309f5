import "../../src/index-node.js";
import { redirectsSuite } from "../suites/redirects.js";
import { nodeHttpUnderTest } from "../suites/transport.js";

redirectsSuite(nodeHttpUnderTest);
