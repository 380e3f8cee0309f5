/**
 * `@z/codecs` as Node loads it (the `node` export condition): everything in `@z/codecs`, with this
 * package's encoders registered, as before encoders became modules of their own (see
 * `enableEncoders`). Browsers and bundlers for them get `index.ts`, which registers none.
 */
import { enableEncoders } from "./enable-encoders.js";

export * from "./index.js";

enableEncoders();
