/*
 * What `zarr create` and `zarr import` share: the create options an array's flags give (Zarr v2
 * or v3), running `create` with a hint for "already exists", and the line that says what was made.
 */
import type { CreateOptions, ZarrArray } from "@z/core";
import { ZarrError, type ArrayMetadataV3, type CodecConfig, type DataType } from "@z/meta";
import { arrayFlags, commonArrayFlags, settleCodecs } from "./array-options.js";
import type { DataTypeV3 } from "@z/meta/v3";
import { arrayFlagsV3, settleCodecsV3 } from "./array-options-v3.js";
import { CommandError, type ParsedArgs } from "./command.js";

/** What the array is made of besides its flags: its dtype (v2), its v3 data type, the object codec a file names. */
export interface ArrayKind {
  readonly dtype: DataType;
  readonly v3Type: () => DataTypeV3;
  /** A v2 object codec that takes the place of none named by the flags. */
  readonly objectCodec?: CodecConfig;
}

/** The create options of an array of `shape` from the flags (`--chunks`, `--compressor`, `--codecs`, ...). */
export async function createOptionsFromFlags(
  args: ParsedArgs,
  zarrFormat: 2 | 3,
  shape: readonly number[],
  kind: ArrayKind,
): Promise<Partial<CreateOptions>> {
  if (zarrFormat === 3) {
    const options = { ...commonArrayFlags(args, shape.length), ...arrayFlagsV3(args, kind.v3Type(), shape.length) };
    await settleCodecsV3(options, shape);
    return options;
  }
  const flags = arrayFlags(args, kind.dtype, shape.length);
  if (kind.objectCodec !== undefined) flags.objectCodec = kind.objectCodec;
  return await settleCodecs(flags);
}

/** Runs `create`, adding a hint to "already exists" errors. */
export async function createArray(make: () => Promise<ZarrArray>): Promise<ZarrArray> {
  try {
    return await make();
  } catch (error) {
    if (error instanceof ZarrError && error.code === "ZARR_EXISTS") {
      throw new CommandError(`${error.message} (pass --overwrite to replace it)`, { key: error.key, cause: error });
    }
    throw error;
  }
}

/** What `zarr create` and `zarr import` say of the Zarr v3 array they made. */
export function describeCreatedV3(array: ZarrArray): string {
  const meta = array.metadata as ArrayMetadataV3;
  const sharding = meta.codecs.length === 1 && meta.codecs[0]!.name === "sharding_indexed" ? meta.codecs[0] : undefined;
  const inner = sharding?.configuration?.chunk_shape as number[] | undefined;
  const chunks =
    inner === undefined
      ? `chunks [${meta.chunkShape.join(", ")}]`
      : `shards [${meta.chunkShape.join(", ")}] of chunks [${inner.join(", ")}]`;
  return `${array.path === "" ? "an array at the root" : array.path} (Zarr v3): shape [${meta.shape.join(", ")}], ${chunks}, data_type ${JSON.stringify(meta.dataType)}`;
}
