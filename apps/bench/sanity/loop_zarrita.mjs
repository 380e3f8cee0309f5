// A plain zarrita.js loop, as a user writes it, outside the bench's runner: the runner must not be
// slower (sanity/compare.mjs runs both on the same data). Each read is `zarr.open` + `zarr.get` on a
// `FileSystemStore`, the previous result dropped first.
//
// usage: node loop_zarrita.mjs ARRAY_DIR N [v2|v3]
// Prints one JSON line: every read's wall, user and system seconds.
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";

const [path, count, format = "v2"] = process.argv.slice(2);
const wall = [];
const user = [];
const system = [];
let result;
for (let i = 0; i < Number(count); i++) {
  result = undefined;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const array = await zarr.open[format](new FileSystemStore(path), { kind: "array" });
  result = await zarr.get(array);
  wall.push((performance.now() - start) / 1000);
  const used = process.cpuUsage(cpu);
  user.push(used.user / 1e6);
  system.push(used.system / 1e6);
}
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
console.log(JSON.stringify({ wall, user, system, peakRssBytes, elements: result.data.length }));
