import { keyPrefix } from "@z/meta";

/** The store keys of a node's documents, named once. */
export const ARRAY_META = ".zarray";
export const GROUP_META = ".zgroup";
export const ATTRS = ".zattrs";
/** A v3 node's one document: its metadata and attributes. */
export const ZARR_JSON = "zarr.json";

export const arrayMetaKey = (path: string): string => keyPrefix(path) + ARRAY_META;
export const groupMetaKey = (path: string): string => keyPrefix(path) + GROUP_META;
export const attrsKey = (path: string): string => keyPrefix(path) + ATTRS;
export const zarrJsonKey = (path: string): string => keyPrefix(path) + ZARR_JSON;
