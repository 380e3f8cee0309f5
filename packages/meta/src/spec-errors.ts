import { ZarrError } from "./errors.js";

/**
 * A TensorStore spec that cannot be used: a member that is not part of the zarr2 driver's spec, a
 * value of the wrong type or out of range, constraints that contradict each other or the stored
 * metadata, or an open mode the store does not allow. `member` names the spec member at fault as a
 * dotted path (`schema.chunk_layout.inner_order`), when one is to blame; the message says what was
 * expected, as TensorStore's own error for the same spec does.
 */
export class SpecError extends ZarrError {
  /** The spec member at fault, as a dotted path from the top of the spec (`metadata.dtype`). */
  readonly member: string | undefined;

  constructor(message: string, options: { member?: string; key?: string; cause?: unknown } = {}) {
    super("ZARR_SPEC", options.member === undefined ? message : `${quoteMember(options.member)}: ${message}`, options);
    this.member = options.member;
  }
}

/** A dotted member path as messages show it. */
export const quoteMember = (member: string): string => `spec member ${JSON.stringify(member)}`;

/**
 * What the spec asks for that this library does not do (a kvstore driver it has no store for, an
 * index transform that is not the identity, a data type it cannot hold). TensorStore would accept
 * the spec; z refuses it rather than silently doing something else.
 */
export class SpecUnsupportedError extends ZarrError {
  readonly member: string | undefined;

  constructor(message: string, options: { member?: string; cause?: unknown } = {}) {
    super(
      "ZARR_SPEC_UNSUPPORTED",
      options.member === undefined ? message : `${quoteMember(options.member)}: ${message}`,
      options,
    );
    this.member = options.member;
  }
}
