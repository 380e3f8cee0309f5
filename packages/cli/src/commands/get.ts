import type { NdData } from "@z/core";
import type { TypedArray } from "@z/meta";
import type { Command } from "../command.js";
import { positionals, stringFlag } from "../command.js";
import { objectsJson, valuesJson } from "../json-values.js";
import { objectCodecOfArray, objectRepr } from "../objects.js";
import { copyBlock, product, typedToBytes } from "../nd.js";
import { withArrayArg } from "../open.js";
import { progressBar } from "../progress.js";
import { keptArrayRepr, summaryRuns } from "../repr/array-repr.js";
import { parseSelection, resolveSelection, selectionShape, toSelectionItems } from "../selection.js";

export const get: Command = {
  name: "get",
  summary: "print values of an array (numpy-style selection), as numpy's repr or JSON",
  usage: "zarr get STORE [--path P] [SELECTION] [--json]",
  details: `SELECTION is numpy's basic indexing without brackets: integers, slices (any step, negative
too), and one ellipsis, separated by commas: 0:10,::2   5   ...,-1   ::-1   (default: everything).
Output is numpy's repr (large arrays are summarized with ... as numpy does); with --json, one line
{"dtype": ..., "shape": [...], "values": [...]} with every value, flat in C order: 64-bit integers
exact, NaN and infinities as "NaN", "Infinity", "-Infinity", datetimes as counts of their unit;
bytes (|S, |V) as base64 (|S without trailing NULs), text (<U) as text; for object arrays also
"object_codec", and values as text (vlen-utf8), base64 (vlen-bytes), lists (vlen-array) or as
Python's json.dumps writes them (json2, msgpack2). So bytes never pass for text.
  --path P    the array inside the store`,
  flags: { path: "string", json: "boolean" },
  async run(args, io) {
    const [location, selectionText = ""] = positionals(args, 1, 2, "STORE SELECTION");
    const items = parseSelection(selectionText);
    return withArrayArg(location!, stringFlag(args, "path"), { readOnly: true }, async (array) => {
      const dims = resolveSelection(items, array.shape);
      const shape = selectionShape(dims);
      const bar = progressBar(io, "reading");
      const json = args.flags.has("json");
      // numpy's summarized repr shows only the edges of a large array: read just those
      const runs = json ? undefined : summaryRuns(shape);
      const blocks = runs === undefined ? [[]] : cartesian(runs);
      const keptShape = runs === undefined ? shape : runs.map((r) => r.reduce((n, [from, to]) => n + to - from, 0));
      // an object array's values are JS values, anything else's element bytes
      const objects = array.dtype.kind === "O" ? objectCodecOfArray(array) : undefined;
      const itemsize = objects === undefined ? array.dtype.itemsize : 1;
      let kept: Uint8Array | unknown[] =
        objects === undefined ? new Uint8Array(product(keptShape) * itemsize) : new Array<unknown>(product(keptShape));
      try {
        for (const cuts of blocks) {
          const result = await array.get<NdData>(toSelectionItems(dims, cuts), {
            progress: bar.callback(),
            signal: io.signal,
          });
          const block =
            objects === undefined ? typedToBytes(result.data as TypedArray, array.dtype) : (result.data as unknown[]);
          if (runs === undefined) kept = block;
          else
            copyBlock(
              block,
              result.shape,
              kept,
              keptShape,
              cuts.map(([from], d) => (from === 0 ? 0 : runs[d]![0]![1] - runs[d]![0]![0])),
              itemsize,
            );
        }
      } finally {
        bar.finish();
      }
      if (objects !== undefined) {
        const values = kept as unknown[];
        io.out(
          json
            ? objectsJson(values, array.dtype, objects, shape)
            : `${keptArrayRepr(values, shape, array.dtype, { objectFormat: (v) => objectRepr(v, objects) })}\n`,
        );
      } else {
        io.out(
          json
            ? valuesJson(kept as Uint8Array, array.dtype, shape)
            : `${keptArrayRepr(kept as Uint8Array, shape, array.dtype)}\n`,
        );
      }
      return 0;
    });
  },
};

/** Every combination of one run per dimension. */
function cartesian(runs: readonly (readonly [number, number])[][]): [number, number][][] {
  let out: [number, number][][] = [[]];
  for (const dim of runs)
    out = out.flatMap((prefix) => dim.map((run) => [...prefix, [run[0], run[1]] as [number, number]]));
  return out;
}
