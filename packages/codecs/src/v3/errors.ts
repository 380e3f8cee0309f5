import { describeJson, MetadataError, UnsupportedExtensionError, type JsonValue } from "@z/meta";

/** Where a codec of a chain stands: the document's key and the codec's member, for error messages. */
export interface CodecPlace {
  /** The store key of the `zarr.json` (or `zarr.json` when none was given). */
  readonly key: string;
  /** Whether a key was given (errors carry it as `key` only then). */
  readonly keyGiven: boolean;
  /** `codecs[2]`. */
  readonly member: string;
  /** The codec's name as written. */
  readonly name: string;
}

/** A `MetadataError` in the form @z/meta's are: `"a/zarr.json" has an invalid "codecs[1].configuration.order": expected ..., found ...`. */
export function invalidField(
  place: CodecPlace,
  field: string,
  expected: string,
  found: JsonValue | undefined,
  detail = "",
): MetadataError {
  const at = field === "" ? place.member : `${place.member}.${field}`;
  return new MetadataError(
    `"${place.key}" has an invalid "${at}" (codec ${JSON.stringify(place.name)}): expected ${expected}, found ${describeJson(found)}${detail}`,
    { key: place.keyGiven ? place.key : undefined, field: at },
  );
}

/** A `MetadataError` about the chain as a whole or a codec's place in it. */
export function invalidChain(
  place: Pick<CodecPlace, "key" | "keyGiven">,
  field: string,
  message: string,
): MetadataError {
  return new MetadataError(`"${place.key}" has an invalid "${field}": ${message}`, {
    key: place.keyGiven ? place.key : undefined,
    field,
  });
}

/** A codec z knows of but does not implement (the spec's "MUST fail to open"). */
export function unsupportedCodec(place: CodecPlace, why: string): UnsupportedExtensionError {
  return new UnsupportedExtensionError(
    `"${place.key}" uses the codec ${JSON.stringify(place.name)} at "${place.member}", which z does not support: ${why}`,
    { key: place.keyGiven ? place.key : undefined, field: place.member, extension: place.name },
  );
}

/** Refuses members of a configuration other than `allowed` (TensorStore and zarr-python refuse them too). */
export function onlyMembers(
  place: CodecPlace,
  configuration: { readonly [k: string]: JsonValue },
  allowed: readonly string[],
): void {
  for (const member of Object.keys(configuration)) {
    if (!allowed.includes(member)) {
      const expected = allowed.length === 0 ? "no members" : `only ${allowed.map((m) => JSON.stringify(m)).join(", ")}`;
      throw invalidField(
        place,
        "configuration",
        expected,
        configuration,
        ` (unknown member ${JSON.stringify(member)})`,
      );
    }
  }
}
