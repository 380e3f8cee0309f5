// Tiny assertions for the Node consumers: a failed one ends the process with exit code 1.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`expected ${what}`);
}

interface ExpectedArray {
  path: string;
  bytes?: [number, number];
}

/** What zarr-python read from the fixture hierarchy: the whole array's bytes, C order, little-endian. */
export function zarrPythonBytes(fixtures: string, path: string): Uint8Array {
  const expected = JSON.parse(readFileSync(join(fixtures, "expected.json"), "utf8")) as { arrays: ExpectedArray[] };
  const entry = expected.arrays.find((array) => array.path === path);
  if (entry?.bytes === undefined) throw new Error(`no expected bytes for ${path}`);
  const [offset, length] = entry.bytes;
  return new Uint8Array(readFileSync(join(fixtures, "expected.bin"))).subarray(offset, offset + length);
}

export function sameBytes(data: ArrayBufferView, expected: Uint8Array): boolean {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return bytes.length === expected.length && bytes.every((byte, i) => byte === expected[i]);
}
