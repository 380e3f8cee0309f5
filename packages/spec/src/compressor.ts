/*
 * The zarr2 driver's compressors as TensorStore declares them (tensorstore/driver/zarr/*_compressor.cc):
 * blosc, zlib, gzip, bz2 and zstd, each config with its members, ranges and defaults; TensorStore
 * writes every member, defaults included, so the config it writes is the one returned here.
 */
import type { CodecConfig, JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { dumpJson, Members, requireInteger, requireString } from "./json.js";

const BLOSC_CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];

/** A compressor config as TensorStore reads it (`null`: none), with every default filled in. */
export function parseCompressor(j: JsonValue, member: string): CodecConfig | null {
  if (j === null) return null;
  const m = new Members(j, member);
  const idValue = m.take("id");
  if (idValue === undefined) throw new SpecError("Expected string, but member is missing", { member: m.at("id") });
  const id = requireString(idValue, m.at("id"));
  const int = (name: string, min: number, max: number, fallback: number): number => {
    const v = m.take(name);
    return v === undefined ? fallback : requireInteger(v, m.at(name), min, max);
  };
  let config: CodecConfig;
  switch (id) {
    case "blosc": {
      const cnameValue = m.take("cname");
      const cname = cnameValue === undefined ? "lz4" : requireString(cnameValue, m.at("cname"));
      if (!BLOSC_CNAMES.includes(cname))
        throw new SpecError(
          `Expected one of ${BLOSC_CNAMES.map((c) => JSON.stringify(c)).join(", ")}, but received: ${dumpJson(cname)}`,
          { member: m.at("cname") },
        );
      config = {
        id,
        cname,
        clevel: int("clevel", 0, 9, 5),
        shuffle: int("shuffle", -1, 2, -1),
        blocksize: int("blocksize", 0, Number.MAX_SAFE_INTEGER, 0),
      };
      break;
    }
    case "zlib":
    case "gzip":
      config = { id, level: int("level", 0, 9, 1) };
      break;
    case "bz2":
      config = { id, level: int("level", 1, 9, 1) };
      break;
    case "zstd":
      config = { id, level: int("level", -131072, 22, 1) };
      break;
    default:
      throw new SpecError(`${JSON.stringify(id)} is not registered`, { member: m.at("id") });
  }
  m.done();
  return config;
}

/** Whether two parsed configs are the same (TensorStore compares their JSON). */
export const sameCompressor = (a: CodecConfig | null, b: CodecConfig | null): boolean =>
  dumpJson(a as JsonValue) === dumpJson(b as JsonValue);
