import type { Command } from "../command.js";
import { positionals, stringFlag } from "../command.js";
import { valuesJson } from "../json-values.js";
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
exact, NaN and infinities as "NaN", "Infinity", "-Infinity", datetimes as counts of their unit.
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
      const itemsize = array.dtype.itemsize;
      let bytes: Uint8Array = new Uint8Array(product(keptShape) * itemsize);
      try {
        for (const cuts of blocks) {
          const result = await array.get(toSelectionItems(dims, cuts), { progress: bar.callback(), signal: io.signal });
          const block = typedToBytes(result.data, array.dtype);
          if (runs === undefined) bytes = block;
          else copyBlock(block, result.shape, bytes, keptShape, cuts.map(([from], d) => (from === 0 ? 0 : runs[d]![0]![1] - runs[d]![0]![0])), itemsize);
        }
      } finally {
        bar.finish();
      }
      io.out(json ? valuesJson(bytes, array.dtype, shape) : keptArrayRepr(bytes, shape, array.dtype) + "\n");
      return 0;
    });
  },
};

/** Every combination of one run per dimension. */
function cartesian(runs: readonly (readonly [number, number])[][]): [number, number][][] {
  let out: [number, number][][] = [[]];
  for (const dim of runs) out = out.flatMap((prefix) => dim.map((run) => [...prefix, [run[0], run[1]] as [number, number]]));
  return out;
}
