import { keyPrefix } from "@z/meta";

/** The store keys of a node's documents, named once. */
export const ARRAY_META = ".zarray";
export const GROUP_META = ".zgroup";
export const ATTRS = ".zattrs";

export const arrayMetaKey = (path: string): string => keyPrefix(path) + ARRAY_META;
export const groupMetaKey = (path: string): string => keyPrefix(path) + GROUP_META;
export const attrsKey = (path: string): string => keyPrefix(path) + ATTRS;
