// The spec errors live in `@z/meta`, where the store packages' kvstore spec hooks throw them too.
export { SpecError, SpecUnsupportedError } from "@z/meta";
export { quoteMember } from "@z/meta/spec";
