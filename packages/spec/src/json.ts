// The JSON member reader lives in `@z/meta/spec`, where the store packages' kvstore spec hooks use it too.
export * from "@z/meta/spec";
