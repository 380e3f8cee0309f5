export * from "./errors.js";
export * from "./store.js";
export * from "./dtype-model.js";
export * from "./json-value.js";
export * from "./array-metadata-model.js";
export * from "./json.js";
