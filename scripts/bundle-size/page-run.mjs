// Runs one page of a bundle as pnpm size measures it (in Node, which runs these browser bundles:
// fetch, WebAssembly, ES modules):
// `node --import ./record-loads.mjs page-run.mjs <entry file> <scenario JSON> <log file>`.
// Scenarios:
// - {"kind": "load"}: import the page, nothing more (what it loads first);
// - {"kind": "read", "url", "expect": {"sel", "values"}}: read the array at url whole, and check the
//   selection `sel` of it against the values zarr-python read (packages/core/test/fixtures/http/expected.json);
// - {"kind": "write", "url", "shape", "compressor"}: create an array at url, write values, read them back.
// Prints {"ok": true} or {"ok": false, "error": "..."}.
import { pathToFileURL } from "node:url";

const same = (a, b) => a === b || (Number.isNaN(a) && Number.isNaN(b));

// What of a browser's `document` Vite's dynamic-import helper touches (it adds <link rel=modulepreload>
// for a chunk's imports, which the import itself loads here).
globalThis.document ??= {
  querySelector: () => null,
  getElementsByTagName: () => [],
  createElement: () => ({ relList: { supports: () => false }, setAttribute() {} }),
  head: { appendChild() {} },
};
globalThis.window ??= { dispatchEvent: () => true };

const [entry, scenarioText] = process.argv.slice(2);
const scenario = JSON.parse(scenarioText);

try {
  const page = await import(pathToFileURL(entry).href);
  if (scenario.kind === "read") {
    const result = await page.read(scenario.url);
    const got = select(result.data, result.shape, scenario.expect.sel);
    const want = scenario.expect.values;
    const bad = got.findIndex((v, i) => !same(v, want[i]));
    if (got.length !== want.length || bad >= 0)
      throw new Error(`read ${scenario.url}: value ${bad} is ${got[bad]}, zarr-python read ${want[bad]}`);
  } else if (scenario.kind === "write") {
    const size = scenario.shape.reduce((a, b) => a * b, 1);
    const values = Int32Array.from({ length: size }, (_, i) => (i * 7919) % 1000);
    await page.write(scenario.url, values, scenario.shape, scenario.compressor);
    const back = await page.read(scenario.url);
    const bad = values.findIndex((v, i) => back.data[i] !== v);
    if (back.data.length !== size || bad >= 0) throw new Error(`${scenario.url}: value ${bad} read back differs`);
  }
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error?.stack ?? error) }));
}

/** The values of a basic selection (zarr-python's test notation: {"slice": [start, stop, step]} or an integer per dimension) of C-order `data`. */
function select(data, shape, sel) {
  const ranges = shape.map((n, d) => {
    const item = sel[d] ?? { slice: [null, null, null] };
    if (typeof item === "number") return [item < 0 ? item + n : item];
    return sliceIndices(n, ...item.slice);
  });
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const out = [];
  const walk = (d, offset) => {
    if (d === shape.length) return void out.push(Number(data[offset]));
    for (const i of ranges[d]) walk(d + 1, offset + i * strides[d]);
  };
  walk(0, 0);
  return out;
}

/** Python's `range(*slice(start, stop, step).indices(n))`. */
function sliceIndices(n, start, stop, step) {
  step ??= 1;
  const clamp = (v, low, high) => Math.min(Math.max(v, low), high);
  const norm = (v, fallback, low, high) => (v === null ? fallback : clamp(v < 0 ? v + n : v, low, high));
  const first = step > 0 ? norm(start, 0, 0, n) : norm(start, n - 1, -1, n - 1);
  const end = step > 0 ? norm(stop, n, 0, n) : norm(stop, -1, -1, n - 1);
  const out = [];
  for (let i = first; step > 0 ? i < end : i > end; i += step) out.push(i);
  return out;
}
