/**
 * `@z/meta/spec`: what reading a TensorStore spec takes, for `@z/spec` and the store packages'
 * kvstore spec hooks alike: the spec errors, the JSON member reader that words its errors as
 * TensorStore does, and the hook contract (`KvStoreSpecHook`, also in `@z/meta`'s index).
 *
 * @packageDocumentation
 */
export { quoteMember, SpecError, SpecUnsupportedError } from "./spec-errors.js";
export {
  doubleValue,
  dumpFloat,
  dumpJson,
  expected,
  integerValue,
  isIntegerToken,
  isNumber,
  isObject,
  type JsonObjectValue,
  Members,
  memberPath,
  numberOf,
  requireArray,
  requireBoolean,
  requireInteger,
  requireString,
  simpleAtod,
} from "./spec-json.js";
export type * from "./kvstore-spec.js";
