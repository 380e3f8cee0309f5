// A read-only page (pnpm size): open an array over HTTP and read all of it. Which codec the array
// uses decides what else loads: a zlib array the DEFLATE decoder, a blosc one blosc's.
import { openArray } from "@z/core";
import { HttpStore } from "@z/store-http";

export async function read(url: string) {
  const array = await openArray(new HttpStore(url), { mode: "r" });
  return array.get();
}
