import { create, ZarrArray } from "@z/core";
import type { SpecArray } from "@z/spec";
import { openSpec } from "@z/spec/node";
import { dataTypeToJSON, parseDataType, type JsonObject, type JsonValue } from "@z/meta";
import { ARRAY_FLAGS, ARRAY_FLAGS_HELP, dtypeFlag, jsonFlag } from "../array-options.js";
import { dtypeV3Flag, refuseV3Flags, v3TypeOf, zarrFormatFlag } from "../array-options-v3.js";
import type { Command, Io, ParsedArgs } from "../command.js";
import { parseIntegerList, positionals, stringFlag, UsageError } from "../command.js";
import { isSpecArg, parseStoreArg, readSpecArg, specWithPath, withStore } from "../store-arg.js";
import { createArray, createOptionsFromFlags, describeCreatedV3 } from "../create-options.js";

export const createCommand: Command = {
  name: "create",
  summary: "create an empty array (and its parent groups), or the array a TensorStore spec describes",
  usage:
    "zarr create STORE --shape 100,200 [--dtype D] [--path P] [--chunks 10,10] [--compressor JSON] [--filters JSON] [--order C|F] [--fill-value JSON] [--dimension-separator .|/] [--attrs JSON] [--overwrite]\n       zarr create STORE --shape 100,200 --zarr-format 3 [--dtype D] [--path P] [--chunks 10,10] [--shards 100,100] [--codecs JSON] [--fill-value JSON] [--dimension-names a,b] [--chunk-key-encoding default|v2] [--separator /|.] [--attrs JSON] [--overwrite]\n       zarr create [STORE] --spec SPEC [--path P] [--attrs JSON] [--overwrite]",
  details: `  --shape 100,200            the array's shape ("" or () for a 0-d array)
${ARRAY_FLAGS_HELP.replace("or a structured descr as JSON", "or a structured descr as JSON (default <f8)")}
  --spec SPEC                a TensorStore zarr2 spec: a file (spec.json), @file, or inline JSON
                             ('{"driver": "zarr2", "kvstore": ..., "schema": ...}'): the array is
                             created as TensorStore 0.1.85 creates it (chunks from the chunk layout
                             constraints, TensorStore's compressor and fill value defaults, its
                             .zarray text); STORE, when given, is the directory instead of its kvstore

Nothing but metadata is written: every element reads as the fill value.`,
  flags: { ...ARRAY_FLAGS, shape: "string", spec: "string" },
  async run(args, io) {
    if (stringFlag(args, "spec") !== undefined) return createFromSpec(args, io);
    const [location] = positionals(args, 1, 1, "STORE");
    const shapeText = stringFlag(args, "shape");
    if (shapeText === undefined) throw new UsageError("--shape is required (or --spec)");
    const shape = parseIntegerList(shapeText, "--shape");
    const zarrFormat = zarrFormatFlag(args);
    if (zarrFormat === 3) {
      const options = await createOptionsFromFlags(args, 3, shape, {
        dtype: parseDataType("<f8"),
        v3Type: () => dtypeV3Flag(args) ?? v3TypeOf(parseDataType("<f8"), undefined),
      });
      return withStore(location!, { mode: "write", path: stringFlag(args, "path") }, async ({ store, path }) => {
        const array = await createArray(() => create({ ...options, store, path, shape }));
        io.err(`created ${describeCreatedV3(array)}\n`);
        return 0;
      });
    }
    refuseV3Flags(args);
    const options = await createOptionsFromFlags(args, 2, shape, {
      dtype: dtypeFlag(args) ?? parseDataType("<f8"),
      v3Type: () => v3TypeOf(parseDataType("<f8"), undefined),
    });
    return withStore(location!, { mode: "write", path: stringFlag(args, "path") }, async ({ store, path }) => {
      const array = await createArray(() => create({ ...options, store, path, shape }));
      io.err(
        `created ${path === "" ? "an array at the root" : path}: shape [${array.shape.join(", ")}], chunks [${array.chunks.join(", ")}], dtype ${JSON.stringify(dataTypeToJSON(array.dtype))}\n`,
      );
      return 0;
    });
  },
};

/** The flags the spec replaces. */
const SPEC_EXCLUDES = [
  "zarr-format",
  "shards",
  "codecs",
  "dimension-names",
  "chunk-key-encoding",
  "separator",
  "shape",
  "chunks",
  "dtype",
  "compressor",
  "filters",
  "object-codec",
  "order",
  "fill-value",
  "dimension-separator",
  "write-empty-chunks",
];

async function createFromSpec(args: ParsedArgs, io: Io): Promise<number> {
  const given = SPEC_EXCLUDES.filter((name) => args.flags.has(name));
  if (given.length > 0)
    throw new UsageError(`--spec describes the array: drop ${given.map((name) => `--${name}`).join(", ")}`);
  const [location] = positionals(args, 0, 1, "STORE");
  let spec = readSpecArg(stringFlag(args, "spec")!, true);
  if (typeof spec !== "object" || spec === null || Array.isArray(spec))
    throw new UsageError("--spec must be a JSON object (a TensorStore zarr2 spec)");
  if (location !== undefined) {
    if (isSpecArg(location)) throw new UsageError("give the spec once: with --spec, STORE is a directory");
    const where = parseStoreArg(location);
    if (where.kind !== "directory")
      throw new UsageError(
        `${location}: with --spec, STORE is a directory (TensorStore's zip and http kvstores are read-only)`,
      );
    spec = {
      ...spec,
      kvstore: { driver: "file", path: `${where.path}/` },
      ...(where.node === "" ? {} : { path: where.node }),
    };
  }
  spec = specWithPath(spec, stringFlag(args, "path"));
  const overwrite = args.flags.has("overwrite");
  const own = spec as Record<string, JsonValue>;
  spec = { ...own, create: true, ...(overwrite ? { open: false, delete_existing: true } : {}) };
  const array = await openSpec(spec);
  const attrs = jsonFlag(args, "attrs");
  const base = array instanceof ZarrArray ? array : array.array;
  if (attrs !== undefined) await base.attrs.put(attrs as JsonObject);
  io.err(`created ${describe(array)}\n`);
  return 0;
}

function describe(a: SpecArray): string {
  const base = a instanceof ZarrArray ? a : a.array;
  if (base.zarrFormat === 3) return describeCreatedV3(base);
  const where = base.path === "" ? "an array" : base.path;
  return `${where}: shape [${base.shape.join(", ")}], chunks [${base.chunks.join(", ")}], dtype ${JSON.stringify(dataTypeToJSON(base.dtype))}, compressor ${JSON.stringify(base.compressor)}`;
}
