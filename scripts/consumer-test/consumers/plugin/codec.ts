// The codec author: a codec declared with defineCodec, registered, and held to the contract by
// @z/codecs/testing without any test framework. A codec that breaks the contract must fail it.
import {
  defaultRegistry,
  defineCodec,
  integer,
  registerCodec,
  requireBytes,
  type ChunkContext,
  type CodecData,
} from "@z/codecs";
import { checkCodec, CodecContractError } from "@z/codecs/testing";
import { ZarrError } from "@z/meta";

export const xor = defineCodec({
  id: "xor",
  config: { key: integer({ min: 0, max: 255, default: 0x5a }) },
  create: ({ key }) => {
    const apply = (data: CodecData, chunk: ChunkContext) => requireBytes(data, "xor", chunk).map((b) => b ^ key);
    return { encode: apply, decode: apply };
  },
});

await checkCodec(xor, {
  configs: [
    { id: "xor", key: 0 },
    { id: "xor", key: 255 },
  ],
  encoded: [{ config: { id: "xor", key: 1 }, decoded: new Uint8Array([1, 2, 3]), encoded: new Uint8Array([0, 3, 2]) }],
  corruption: "none",
});
console.log("checkCodec: xor meets the codec contract");

// Drops the last byte on decode.
const lossy = defineCodec({
  id: "lossy",
  config: {},
  create: () => ({
    encode: (data: CodecData, chunk: ChunkContext) => requireBytes(data, "lossy", chunk).slice(),
    decode: (data: CodecData, chunk: ChunkContext) => requireBytes(data, "lossy", chunk).slice(0, -1),
  }),
});
const refused = await checkCodec(lossy, { corruption: "none" }).then(
  () => undefined,
  (error: unknown) => error,
);
if (!(refused instanceof CodecContractError)) throw new Error(`checkCodec passed a lossy codec (${String(refused)})`);
console.log(`checkCodec refuses a lossy codec: ${refused.message.split("\n")[0]}`);

registerCodec("xor", () => xor);
const codec = await defaultRegistry.create({ id: "xor", key: 3 });
if (codec.id !== "xor") throw new Error("the default registry did not build the registered xor");
try {
  xor.create({ id: "xor", key: 300 });
  throw new Error("xor accepted key 300");
} catch (error) {
  // One @z/meta in the tree: the class @z/codecs throws is the one this project imports.
  if (!(error instanceof ZarrError) || !/key/.test(error.message))
    throw new Error(`expected a ZarrError naming the field, got ${String(error)}`);
}
console.log("registerCodec + defaultRegistry; a bad config is a ZarrError of this project's @z/meta");
