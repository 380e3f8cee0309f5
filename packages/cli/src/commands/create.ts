import { create } from "@z/core";
import { dataTypeToJSON, parseDataType } from "@z/meta";
import { ARRAY_FLAGS, ARRAY_FLAGS_HELP, arrayFlags, dtypeFlag, settleCodecs } from "../array-options.js";
import type { Command } from "../command.js";
import { parseIntegerList, positionals, stringFlag, UsageError } from "../command.js";
import { withStore } from "../store-arg.js";
import { createArray } from "./import.js";

export const createCommand: Command = {
  name: "create",
  summary: "create an empty array (and its parent groups)",
  usage:
    "zarr create STORE --shape 100,200 [--dtype D] [--path P] [--chunks 10,10] [--compressor JSON] [--filters JSON] [--order C|F] [--fill-value JSON] [--dimension-separator .|/] [--attrs JSON] [--overwrite]",
  details: `  --shape 100,200            the array's shape ("" or () for a 0-d array)
${ARRAY_FLAGS_HELP.replace("or a structured descr as JSON", "or a structured descr as JSON (default <f8)")}

Nothing but metadata is written: every element reads as the fill value.`,
  flags: { ...ARRAY_FLAGS, shape: "string" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    const shapeText = stringFlag(args, "shape");
    if (shapeText === undefined) throw new UsageError("--shape is required");
    const shape = parseIntegerList(shapeText, "--shape");
    const dtype = dtypeFlag(args) ?? parseDataType("<f8");
    const options = await settleCodecs(arrayFlags(args, dtype, shape.length));
    return withStore(location!, { mode: "write", path: stringFlag(args, "path") }, async ({ store, path }) => {
      const array = await createArray(() => create({ ...options, store, path, shape }));
      io.err(
        `created ${path === "" ? "an array at the root" : path}: shape [${array.shape.join(", ")}], chunks [${array.chunks.join(", ")}], dtype ${JSON.stringify(dataTypeToJSON(array.dtype))}\n`,
      );
      return 0;
    });
  },
};
