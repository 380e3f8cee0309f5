// What a viewer page loads: open an array over HTTP and read a 2-D tile of it. zlib and gzip come
// with @z/codecs; nothing here registers a WASM codec.
import { openArray, slice } from "@z/core";
import { HttpStore } from "@z/store-http";

export async function readTile(url: string, row: number, col: number, size = 256) {
  const array = await openArray(new HttpStore(url), { mode: "r" });
  return array.get([slice(row, row + size), slice(col, col + size)]);
}
