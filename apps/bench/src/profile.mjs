// Summarises a V8 .cpuprofile (node --cpu-prof): the functions with the most self time.
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { markdownTable } from "./lib.mjs";

/**
 * Self time per function (same name, file and line aggregated), the largest first.
 * @param {any} profile
 * @param {{ root?: string, window?: [number, number] }} [options] `window`: only samples taken within
 *   these monotonic-clock microseconds (the profile's own clock), e.g. a runner's `timedMicros`
 * @returns {{ name: string, where: string, selfMs: number, share: number }[]}
 */
export function selfTimes(profile, { root, window } = {}) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  // Sample i was taken at startTime + the deltas up to i; its time is the delta to the next sample.
  let at = profile.startTime ?? 0;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (window && (at < window[0] || at > window[1])) continue;
    const dt = timeDeltas[i + 1] ?? 0;
    selfByNode.set(samples[i], (selfByNode.get(samples[i]) ?? 0) + Math.max(0, dt));
  }
  let total = 0;
  const byFunction = new Map();
  for (const [id, micros] of selfByNode) {
    const frame = byNode.get(id)?.callFrame ?? {};
    const name = frame.functionName || "(anonymous)";
    const where = frame.url ? `${shortUrl(frame.url, root)}:${frame.lineNumber + 1}` : "";
    const key = `${name}\0${where}`;
    const entry = byFunction.get(key) ?? { name, where, selfMs: 0, share: 0 };
    entry.selfMs += micros / 1000;
    byFunction.set(key, entry);
    total += micros / 1000;
  }
  const list = [...byFunction.values()].sort((a, b) => b.selfMs - a.selfMs);
  for (const entry of list) entry.share = total > 0 ? entry.selfMs / total : 0;
  return list;
}

function shortUrl(url, root) {
  let path = url;
  if (url.startsWith("file://")) path = fileURLToPath(url);
  if (root && path.startsWith("/")) path = relative(root, path);
  return path.replace(/^node_modules\/\.pnpm\/[^/]+\/node_modules\//, "");
}

/**
 * The top `top` functions by self time, as a Markdown table.
 * @param {any} profile
 * @param {{ top?: number, root?: string, window?: [number, number] }} [options]
 */
export function summarizeProfile(profile, { top = 15, root, window } = {}) {
  const rows = selfTimes(profile, { root, window })
    .slice(0, top)
    .map((e) => [`${e.selfMs.toFixed(0)} ms`, `${(e.share * 100).toFixed(1)}%`, e.name, e.where]);
  return markdownTable(["self", "share", "function", "where"], rows);
}
