// Test helpers that need Node: local files and zarr-python (/usr/bin/python3).
export { nodeFile } from "./node-file.js";

export { hasZarrPython, python } from "../../../scripts/test-child/python.js";
