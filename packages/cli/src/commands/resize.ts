import type { Command } from "../command.js";
import { parseIntegerList, positionals, stringFlag, UsageError } from "../command.js";
import { withArrayArg } from "../open.js";

export const resize: Command = {
  name: "resize",
  summary: "change the shape of an array (chunks outside the new shape are deleted)",
  usage: "zarr resize STORE [--path P] --shape 100,200",
  details: `As zarr-python's Array.resize: data in chunks that stay is kept as it is; chunks wholly outside
the new shape are deleted; growing exposes the fill value.
  --path P      the array inside the store
  --shape S     the new shape, one integer per dimension`,
  flags: { path: "string", shape: "string" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    const shapeText = stringFlag(args, "shape");
    if (shapeText === undefined) throw new UsageError("--shape is required");
    const shape = parseIntegerList(shapeText, "--shape");
    return withArrayArg(location!, stringFlag(args, "path"), { readOnly: false }, async (array) => {
      if (shape.length !== array.ndim)
        throw new UsageError(`--shape has ${shape.length} values, the array has ${array.ndim} dimensions`);
      const before = [...array.shape];
      await array.resize(shape, { signal: io.signal });
      io.err(
        `resized ${array.path === "" ? "the array" : array.path} from [${before.join(", ")}] to [${array.shape.join(", ")}]\n`,
      );
      return 0;
    });
  },
};
