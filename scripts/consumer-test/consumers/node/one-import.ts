// The one-import checks (../common/one-import.ts) in Node: a DirectoryStore over a file is the
// store that fails.
import { fileURLToPath } from "node:url";
import { DirectoryStore } from "@z/store-fs";
import { checkOneImport } from "../common/one-import.js";

for (const line of await checkOneImport(() => new DirectoryStore(fileURLToPath(import.meta.url)))) console.log(line);
