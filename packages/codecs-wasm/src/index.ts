export { lz4, lz4Config } from "./lz4.js";
