// The viewer with blosc registered, as @z/codecs-wasm's README says to: blosc's code must come in a
// chunk of its own, loaded when an array first uses it, so the page grows only by the loader.
import { registerCodec } from "@z/codecs";
import { loadBlosc } from "@z/codecs-wasm";

registerCodec("blosc", loadBlosc);

export { readTile } from "./viewer.ts";
