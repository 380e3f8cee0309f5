import "../../src/index-node.js";
import { zarrPythonSuite } from "../suites/zarr-python.js";
import { nodeHttpUnderTest } from "../suites/transport.js";

zarrPythonSuite(nodeHttpUnderTest);
