import { open as openFile, rm } from "node:fs/promises";
import { dataTypeToJSON } from "@z/meta";
import type { Command } from "../command.js";
import { CommandError, positionals, stringFlag, UsageError } from "../command.js";
import type { NdData } from "@z/core";
import type { TypedArray } from "@z/meta";
import { arrayKey, zarrJsonKey } from "../hierarchy.js";
import { objectsJsonItems, valuesJsonHead, valuesJsonItems, VALUES_JSON_TAIL } from "../json-values.js";
import { reorder, typedToBytes } from "../nd.js";
import { encodeNpyHeader, NpyError } from "../npy/index.js";
import { objectCodecOfArray } from "../objects.js";
import { withArrayArg } from "../open.js";
import { progressBar } from "../progress.js";
import { parseSelection, resolveSelection, selectionShape, toSelectionItems, type ResolvedDim } from "../selection.js";
import { planSlabs } from "../slabs.js";
import { exportDecoded } from "../dataset.js";
import { withStore } from "../store-arg.js";

export const exportCommand: Command = {
  name: "export",
  summary: "write an array (or a selection of it) to a .npy or .json file",
  usage: "zarr export STORE [--path P] --out FILE [--selection S] [--format npy|json] [--decode-cf]",
  details: `  --out FILE        FILE.npy: numpy's format, with the array's exact dtype and byte order and
                    fortran_order when the array is in F order; FILE.json:
                    {"dtype": ..., "shape": [...], "values": [...]}, values flat in C order
                    (see \`zarr get --help\` for how values are written: bytes, |S, |V and
                    vlen-bytes, as base64, text as text; object arrays export to .json only)
  --selection S     numpy-style selection, e.g. 0:10,::2 (default: everything)
  --format F        npy or json, when FILE's extension says neither
  --decode-cf       the variable's values as xarray decodes them (the array is a variable of the
                    dataset in its group): masked values NaN, packed values unpacked, times as
                    datetime64[ns] (a .npy's <M8[ns]; ISO text in JSON), booleans, strings; the
                    selection applies to the decoded dimensions. Read whole, not in slabs.
The array is read in slabs of whole chunks, so it need not fit in memory.`,
  flags: { path: "string", out: "string", selection: "string", format: "string", "decode-cf": "boolean" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    const out = stringFlag(args, "out");
    if (out === undefined) throw new UsageError("--out FILE is required");
    const format =
      stringFlag(args, "format") ?? (/\.npy$/i.test(out) ? "npy" : /\.json$/i.test(out) ? "json" : undefined);
    if (format !== "npy" && format !== "json")
      throw new UsageError(`cannot tell the format of ${out}: name it *.npy or *.json, or pass --format npy|json`);
    const items = parseSelection(stringFlag(args, "selection") ?? "");
    if (args.flags.has("decode-cf")) {
      return withStore(location!, { mode: "read", path: stringFlag(args, "path") }, async ({ store, path }) => {
        io.err(await exportDecoded(store, path, items, out, format, io.signal));
        return 0;
      });
    }
    return withArrayArg(location!, stringFlag(args, "path"), { readOnly: true }, async (array) => {
      const dims = resolveSelection(items, array.shape);
      const shape = selectionShape(dims);
      const dtype = array.dtype;
      const objects = dtype.kind === "O" ? objectCodecOfArray(array) : undefined;
      if (objects !== undefined && format === "npy") {
        throw new NpyError(
          `${array.path === "" ? "the array" : JSON.stringify(array.path)} is an object array (dtype |O, ${objects.id}): a .npy file holds objects only pickled, which numpy loads only with allow_pickle=True; export it as JSON instead (--out FILE.json)`,
          { key: array.zarrFormat === 3 ? zarrJsonKey(array.path) : arrayKey(array.path) },
        );
      }
      const fortran = format === "npy" && array.order === "F" && shape.filter((n) => n > 1).length >= 2;

      // slabs along the first output dimension (the last for Fortran order), whole chunks at a time
      const ranges = dims.map((d, i) => [d, i] as const).filter(([d]) => d.kind === "range") as [
        Extract<ResolvedDim, { kind: "range" }>,
        number,
      ][];
      const outDim = fortran ? ranges.length - 1 : 0;
      const slabRange = ranges[outDim];
      const itemsize = dtype.itemsize;
      const slabs: ([number, number] | undefined)[] =
        slabRange === undefined
          ? [undefined]
          : planSlabs(
              slabRange[0],
              array.chunks[slabRange[1]]!,
              (shape.reduce((a, b) => a * b, 1) / Math.max(1, shape[outDim]!)) * itemsize,
            );

      const bar = progressBar(io, `exporting ${out}`);
      bar.setTotal(dims.reduce((n, d, i) => n * (d.kind === "index" ? 1 : chunksTouched(d, array.chunks[i]!)), 1));
      let handle: Awaited<ReturnType<typeof openFile>>;
      try {
        handle = await openFile(out, "w");
      } catch (cause) {
        throw new CommandError(`cannot write ${out}: ${(cause as Error).message}`, { key: out, cause });
      }
      try {
        let position = 0;
        const write = async (data: Uint8Array | string): Promise<void> => {
          const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
          await handle.write(bytes, 0, bytes.length, position);
          position += bytes.length;
        };
        await write(
          format === "npy"
            ? encodeNpyHeader({ dtype, shape, fortranOrder: fortran })
            : valuesJsonHead(dtype, shape, objects),
        );
        let first = true;
        let written = 0;
        for (const slab of shape.includes(0) ? [] : slabs) {
          const cuts: ([number, number] | undefined)[] = [];
          if (slab !== undefined) cuts[outDim] = slab;
          const result = await array.get<NdData>(toSelectionItems(dims, cuts), {
            progress: bar.callback(),
            signal: io.signal,
          });
          if (objects !== undefined) {
            const values = result.data as unknown[];
            await write((first ? "" : ", ") + objectsJsonItems(values, objects, written));
            written += values.length;
            first = false;
            continue;
          }
          let bytes = typedToBytes(result.data as TypedArray, dtype);
          if (format === "npy") {
            if (fortran) bytes = reorder(bytes, result.shape, itemsize, "C");
            await write(bytes);
          } else {
            await write((first ? "" : ", ") + valuesJsonItems(bytes, dtype));
          }
          first = false;
        }
        if (format === "json") await write(VALUES_JSON_TAIL);
        await handle.close();
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(out, { force: true }).catch(() => undefined);
        throw error;
      } finally {
        bar.finish();
      }
      io.err(
        `wrote ${out}: shape [${shape.join(", ")}], dtype ${JSON.stringify(dataTypeToJSON(dtype))}${fortran ? ", Fortran order" : ""}\n`,
      );
      return 0;
    });
  },
};

/** How many chunks of length `chunk` a range of indices touches. */
function chunksTouched(dim: Extract<ResolvedDim, { kind: "range" }>, chunk: number): number {
  if (dim.length === 0) return 0;
  if (Math.abs(dim.step) >= chunk) return dim.length;
  const first = Math.floor(dim.start / chunk);
  const last = Math.floor((dim.start + (dim.length - 1) * dim.step) / chunk);
  return Math.abs(last - first) + 1;
}
