// A page that writes (pnpm size): create an array over HTTP (PUT) with a given compressor, or
// zarr-python's default (blosc lz4), and write values into it; `read` reads them back. It registers
// the encoders, as a page that writes compressed data must (they load when first used).
import { create, enableEncoders, openArray } from "@z/core";
import type { CodecConfig } from "@z/meta";
import { HttpStore } from "@z/store-http";

enableEncoders();

export async function write(url: string, values: Int32Array, shape: number[], compressor?: CodecConfig) {
  const store = new HttpStore(url, { writable: true });
  const array = await create({ store, shape, chunks: shape.map((n) => Math.ceil(n / 2)), dtype: "<i4", compressor });
  await array.set(null, { data: values, shape });
}

export async function read(url: string) {
  const array = await openArray(new HttpStore(url), { mode: "r" });
  return array.get();
}
