import { Group, open, ZarrArray } from "@z/core";
import type { Command } from "../command.js";
import { stringFlag } from "../command.js";
import { openStore } from "../store-arg.js";

export const info: Command = {
  name: "info",
  summary: "describe an array or group, like zarr-python's .info",
  usage: "zarr info STORE [--path P] [--json]",
  async run(args, io) {
    const [location] = args.positional;
    if (location === undefined) return usage(io, this.usage);
    const store = await openStore(location);
    const node = await open(store, { mode: "r", path: stringFlag(args, "path") });
    if (args.flags.has("json")) {
      io.out(JSON.stringify(await describe(node), null, 2) + "\n");
    } else if (node instanceof ZarrArray) {
      io.out(await node.info());
    } else {
      const groups = await node.groupKeys();
      const arrays = await node.arrayKeys();
      io.out(`Name        : ${node.name}\nType        : Group\nNo. members : ${groups.length + arrays.length}\n`);
      io.out(`No. arrays  : ${arrays.length}\nNo. groups  : ${groups.length}\n`);
      if (arrays.length) io.out(`Arrays      : ${arrays.join(", ")}\n`);
      if (groups.length) io.out(`Groups      : ${groups.join(", ")}\n`);
    }
    return 0;
  },
};

async function describe(node: ZarrArray | Group): Promise<Record<string, unknown>> {
  if (node instanceof Group) {
    return { kind: "group", name: node.name, groups: await node.groupKeys(), arrays: await node.arrayKeys() };
  }
  return {
    kind: "array",
    name: node.name,
    shape: node.shape,
    chunks: node.chunks,
    dtype: node.metadata.dtype,
    order: node.order,
    compressor: node.compressor,
    filters: node.filters,
    nbytes: node.nbytes,
    nbytesStored: await node.nbytesStored(),
    nchunks: node.nchunks,
    nchunksInitialized: await node.nchunksInitialized(),
  };
}

function usage(io: { err(t: string): void }, text: string): number {
  io.err(`usage: ${text}\n`);
  return 2;
}
