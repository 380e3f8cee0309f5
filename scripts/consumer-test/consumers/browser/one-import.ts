// The one-import checks (../common/one-import.ts) in the browser: an HttpStore answered 403 is
// the store that fails.
import { HttpStore } from "@z/store-http";
import { checkOneImport } from "../common/one-import.js";
import { forbiddenUrl, report } from "./report.js";

report("one-import", () => checkOneImport(() => new HttpStore(forbiddenUrl)));
