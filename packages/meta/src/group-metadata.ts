import { encodeJson, stringifyJson } from "./json.js";
import { checkZarrFormat, readMetadataObject, type MetadataInput } from "./metadata-document.js";

/** The decoded content of a `.zgroup` document. */
export interface GroupMetadata {
  readonly zarrFormat: 2;
}

/**
 * Reads `.zgroup`. Only `zarr_format` matters; other keys are ignored, as zarr-python ignores them,
 * although the spec says they must not be there.
 */
export function parseGroupMetadata(input: MetadataInput, key = ".zgroup"): GroupMetadata {
  return { zarrFormat: checkZarrFormat(readMetadataObject(input, key), key) };
}

/** `.zgroup` exactly as zarr-python writes it. */
export function serializeGroupMetadata(_meta: GroupMetadata = { zarrFormat: 2 }): string {
  return stringifyJson({ zarr_format: 2 });
}

export function encodeGroupMetadata(_meta: GroupMetadata = { zarrFormat: 2 }): Uint8Array {
  return encodeJson({ zarr_format: 2 });
}
