/**
 * `@z/codecs-wasm` as Node loads it (the `node` export condition): everything in `@z/codecs-wasm`,
 * with every encoder registered (`enableWasmEncoders`), as before encoders became modules of their
 * own. Browsers and bundlers for them get `index.ts`, which registers none.
 */
import { enableWasmEncoders } from "./loaders.js";

export * from "./index.js";

enableWasmEncoders();
