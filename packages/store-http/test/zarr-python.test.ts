import { zarrPythonSuite } from "./suites/zarr-python.js";
import { fetchUnderTest } from "./suites/transport.js";

zarrPythonSuite(fetchUnderTest);
