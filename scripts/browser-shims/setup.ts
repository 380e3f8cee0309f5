// Node's `Buffer` global, for test files run in the browser that use it to spell bytes (hex, base64).
import { Buffer } from "buffer";

(globalThis as { Buffer?: typeof Buffer }).Buffer ??= Buffer;
