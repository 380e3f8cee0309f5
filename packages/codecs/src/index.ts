export type * from "./codec.js";
