import type { Command } from "../command.js";
import { positionals, stringFlag } from "../command.js";
import { valuesJson } from "../json-values.js";
import { typedToBytes } from "../nd.js";
import { openArrayArg } from "../open.js";
import { progressBar } from "../progress.js";
import { arrayRepr } from "../repr/array-repr.js";
import { parseSelection, resolveSelection, selectionShape, toSelectionItems } from "../selection.js";

export const get: Command = {
  name: "get",
  summary: "print values of an array (numpy-style selection), as numpy's repr or JSON",
  usage: "zarr get STORE [--path P] [SELECTION] [--json]",
  details: `SELECTION is numpy's basic indexing without brackets: integers, slices with a positive
step, and one ellipsis, separated by commas: 0:10,::2   5   ...,-1   :   (default: everything).
Output is numpy's repr (large arrays are summarized with ... as numpy does); with --json, one line
{"dtype": ..., "shape": [...], "values": [...]} with every value, flat in C order: 64-bit integers
exact, NaN and infinities as "NaN", "Infinity", "-Infinity", datetimes as counts of their unit.
  --path P    the array inside the store`,
  flags: { path: "string", json: "boolean" },
  async run(args, io) {
    const [location, selectionText = ""] = positionals(args, 1, 2, "STORE SELECTION");
    const items = parseSelection(selectionText);
    const { array } = await openArrayArg(location!, stringFlag(args, "path"), { readOnly: true });
    const dims = resolveSelection(items, array.shape);
    const shape = selectionShape(dims);
    const bar = progressBar(io, "reading");
    let bytes: Uint8Array;
    try {
      const result = await array.get(toSelectionItems(dims), { progress: bar.callback(), signal: io.signal });
      bytes = typedToBytes(result.data, array.dtype);
    } finally {
      bar.finish();
    }
    io.out(args.flags.has("json") ? valuesJson(bytes, array.dtype, shape) : arrayRepr(bytes, shape, array.dtype) + "\n");
    return 0;
  },
};
