// Pure helpers of the bench: arguments, statistics, checks and the table (tested in test/).
import { CASE_IDS, S3_CASE_IDS } from "./cases.mjs";

export const IMPLS = ["z", "zarrita", "zarr-python", "tensorstore"];
/** What z is measured against, each in its own ratio columns (z's time ÷ theirs, per round). */
export const ANCHORS = ["zarr-python", "tensorstore", "zarrita"];
export const FLOORS = ["floor-read", "floor-copy"];
export const BASELINE = "zarr-python";
/** `--cases` also takes `codecs`: the codec rows (src/codec-rows.mjs), z's codecs against numcodecs'. */
export const CODECS_PART = "codecs";
const CASE_CHOICES = [...CASE_IDS, CODECS_PART];
/** `--cases s3` stands for the S3 cases (issue 20). */
export const S3_PART = "s3";

export const SIZES = {
  full: { n: 8192, windows: 2000, r7n: 4096, rounds: 3, repeat: 5 },
  quick: { n: 4096, windows: 200, r7n: 2048, rounds: 1, repeat: 5 },
};

const USAGE = `usage: pnpm bench [--quick] [--cases R1,R6,codecs,s3] [--impls z,zarrita,zarr-python,tensorstore] [--rounds N] [--repeat N]
                  [--no-floors] [--no-build] [--data DIR] [--keep-data] [--timeout SECONDS] [--profile]
       pnpm bench --report bench-results/FILE.json    (prints a saved run's tables again)`;

/**
 * @typedef {{ quick: boolean, cases: string[], impls: string[], rounds: number, repeat: number, floors: boolean, build: boolean,
 *   data: string | undefined, keepData: boolean, timeoutSeconds: number, profile: boolean, report: string | undefined,
 *   sizes: { n: number, windows: number, r7n: number, rounds: number, repeat: number } }} Options
 */

/**
 * Parses the bench's command line; throws with the usage on anything it does not know.
 * @param {string[]} argv
 * @returns {Options}
 */
export function parseArgs(argv) {
  /** @type {Options} */
  const options = {
    quick: false,
    cases: [...CASE_CHOICES],
    impls: [...IMPLS],
    rounds: 0,
    repeat: 0,
    floors: true,
    build: true,
    data: undefined,
    keepData: false,
    timeoutSeconds: 1800,
    profile: false,
    report: undefined,
    sizes: SIZES.full,
  };
  const list = (value, known, what) => {
    const items = String(value ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = items.filter((i) => !known.includes(i));
    if (items.length === 0 || unknown.length > 0) {
      throw new Error(
        `unknown ${what} ${JSON.stringify(unknown.join(","))}: choose from ${known.join(", ")}\n${USAGE}`,
      );
    }
    return known.filter((k) => items.includes(k));
  };
  const positive = (value, what) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`${what} must be a positive integer, got ${JSON.stringify(value)}\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes("=") ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--":
        break;
      case "--quick":
        options.quick = true;
        break;
      case "--cases": {
        const given = String(value() ?? "")
          .split(",")
          .flatMap((item) => (item.trim() === S3_PART ? S3_CASE_IDS : [item]))
          .join(",");
        options.cases = list(given, CASE_CHOICES, "case");
        break;
      }
      case "--impls":
        options.impls = list(value(), IMPLS, "implementation");
        break;
      case "--rounds":
        options.rounds = positive(value(), "--rounds");
        break;
      case "--repeat":
        options.repeat = positive(value(), "--repeat");
        break;
      case "--no-floors":
        options.floors = false;
        break;
      case "--no-build":
        options.build = false;
        break;
      case "--data":
        options.data = value();
        if (!options.data) throw new Error(`--data needs a directory\n${USAGE}`);
        break;
      case "--keep-data":
        options.keepData = true;
        break;
      case "--report":
        options.report = value();
        if (!options.report) throw new Error(`--report needs a results file\n${USAGE}`);
        break;
      case "--profile":
        options.profile = true;
        break;
      case "--timeout":
        options.timeoutSeconds = positive(value(), "--timeout");
        break;
      case "-h":
      case "--help":
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${JSON.stringify(argv[i])}\n${USAGE}`);
    }
  }
  options.sizes = SIZES[options.quick ? "quick" : "full"];
  if (options.rounds === 0) options.rounds = options.sizes.rounds;
  if (options.repeat === 0) options.repeat = options.sizes.repeat;
  return options;
}

/** The median (the mean of the middle two for an even count); undefined for none. */
export function median(values) {
  const sorted = values.filter((v) => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Checks every run against the checksum zarr-python computed when it wrote the data, and the
 * implementations against one another. Returns one message per problem (none: all agree).
 */
export function checksumProblems(runs, expected) {
  const problems = [];
  const seen = new Map();
  for (const run of runs) {
    if (run.status !== "ok" || run.checksum === undefined) continue;
    const want = expected[run.case];
    const label = `${run.case} ${run.impl} round ${run.round}`;
    if (want !== undefined && run.checksum !== want) {
      problems.push(`${label}: checksum ${run.checksum.slice(0, 16)}… but the data's is ${want.slice(0, 16)}…`);
    }
    if (run.sourceChecksum !== undefined && want !== undefined && run.sourceChecksum !== want) {
      problems.push(
        `${label}: wrote data with checksum ${run.sourceChecksum.slice(0, 16)}…, not the source's ${want.slice(0, 16)}…`,
      );
    }
    const other = seen.get(run.case);
    if (other && other.checksum !== run.checksum) {
      problems.push(
        `${label}: checksum differs from ${other.impl} round ${other.round} (${run.checksum.slice(0, 16)}… vs ${other.checksum.slice(0, 16)}…)`,
      );
    }
    if (!other) seen.set(run.case, run);
  }
  return problems;
}

/**
 * Per case and implementation: the median seconds, CPU seconds and peak RSS over the rounds that
 * ran, and for each implementation its ratio to the baseline in every round (same round, so the
 * same machine state) with their median.
 */
export function summarize(runs, { cases, impls, baseline = BASELINE }) {
  /** @type {Record<string, Record<string, any>>} */
  const summary = {};
  for (const id of cases) {
    const byImpl = {};
    for (const impl of impls) {
      const mine = runs.filter((r) => r.case === id && r.impl === impl);
      if (mine.length === 0) continue;
      const ok = mine.filter((r) => r.status === "ok");
      const entry = {
        status: ok.length === mine.length ? "ok" : (mine.find((r) => r.status !== "ok")?.status ?? "ok"),
        rounds: mine.length,
        seconds: ok.map((r) => r.seconds),
        medianSeconds: median(ok.map((r) => r.seconds)),
        minSeconds: ok.length ? Math.min(...ok.map((r) => r.seconds)) : undefined,
        medianCpuSeconds: median(ok.map((r) => r.cpuSeconds)),
        medianPeakRssBytes: median(ok.map((r) => r.peakRssBytes)),
        medianWarmSeconds: median(ok.map((r) => r.warmSeconds)),
        medianWarmCpuSeconds: median(ok.map((r) => r.warmCpuSeconds)),
        medianRssAfterBytes: median(ok.map((r) => r.rssAfterBytes)),
        operations: ok[0]?.opSeconds?.length,
        hugePagesBytes: ok.map((r) => r.hugePagesBytes),
      };
      const windows = ok[0]?.windows;
      if (windows !== undefined && entry.medianSeconds) entry.windowsPerSecond = windows / entry.medianSeconds;
      const detail = mine.find((r) => r.status !== "ok")?.detail;
      if (detail !== undefined) entry.detail = detail;
      if (impl !== baseline) {
        const ratios = [];
        const cpuRatios = [];
        for (const run of ok) {
          const base = runs.find(
            (r) => r.case === id && r.impl === baseline && r.round === run.round && r.status === "ok",
          );
          if (!base) continue;
          ratios.push(run.seconds / base.seconds);
          if (run.cpuSeconds !== undefined && base.cpuSeconds > 0) cpuRatios.push(run.cpuSeconds / base.cpuSeconds);
        }
        if (ratios.length > 0) {
          entry.ratios = ratios;
          entry.medianRatio = median(ratios);
        }
        if (cpuRatios.length > 0) entry.medianCpuRatio = median(cpuRatios);
        const baseMin = runs
          .filter((r) => r.case === id && r.impl === baseline && r.status === "ok")
          .reduce((m, r) => Math.min(m, r.seconds), Infinity);
        if (entry.minSeconds !== undefined && Number.isFinite(baseMin)) entry.minRatio = entry.minSeconds / baseMin;
      }
      entry.vs = against(runs, id, impl, ok);
      byImpl[impl] = entry;
    }
    summary[id] = byImpl;
  }
  return summary;
}

/**
 * An implementation's time ÷ each anchor's, cold (`seconds`, the first operation of a process) and
 * warm (`warmSeconds`, the median of operations 2..N), per round (the same round: the same machine
 * state), with their median, best and worst.
 */
function against(runs, id, impl, ok) {
  const vs = {};
  for (const anchor of ANCHORS) {
    if (anchor === impl) continue;
    const modes = {};
    for (const [mode, field] of [
      ["cold", "seconds"],
      ["warm", "warmSeconds"],
    ]) {
      const ratios = [];
      for (const run of ok) {
        const base = runs.find((r) => r.case === id && r.impl === anchor && r.round === run.round && r.status === "ok");
        if (base?.[field] > 0 && run[field] !== undefined) ratios.push(run[field] / base[field]);
      }
      if (ratios.length > 0)
        modes[mode] = { ratios, median: median(ratios), best: Math.min(...ratios), worst: Math.max(...ratios) };
    }
    if (Object.keys(modes).length > 0) vs[anchor] = modes;
  }
  return vs;
}

/** z's ratios to each anchor, cold and warm: the median, and the best and worst round. */
export function formatAnchorTable(summary, cases, { impls, subject = "z" }) {
  const anchors = ANCHORS.filter((a) => impls.includes(a) && a !== subject);
  if (!impls.includes(subject) || anchors.length === 0) return undefined;
  const header = ["case", ...anchors.flatMap((a) => [`${subject} ÷ ${a} cold`, `${subject} ÷ ${a} warm`])];
  const spread = (m) =>
    m === undefined
      ? "—"
      : m.ratios.length > 1
        ? `${formatRatio(m.median)} (${m.best.toFixed(2)}–${m.worst.toFixed(2)})`
        : formatRatio(m.median);
  const rows = cases.map((c) => {
    const e = summary[c.id]?.[subject];
    return [
      c.id,
      ...anchors.flatMap((a) => (e?.status === "ok" ? [spread(e.vs?.[a]?.cold), spread(e.vs?.[a]?.warm)] : ["—", "—"])),
    ];
  });
  return markdownTable(header, rows);
}

export const formatSeconds = (s) =>
  s === undefined ? "—" : s >= 100 ? `${s.toFixed(0)} s` : s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(2)} s`;
export const formatMiB = (bytes) => (bytes === undefined ? "—" : `${Math.round(bytes / 2 ** 20)} MiB`);
export const formatRatio = (r) => (r === undefined ? "—" : `${r.toFixed(2)}×`);

/** A cell for an entry: its median, or why there is none. */
function cell(entry, value) {
  if (entry === undefined) return "—";
  if (entry.status === "unsupported") return "unsupported";
  if (entry.status !== "ok") return entry.status.toUpperCase();
  return value(entry);
}

/** A Markdown table, columns padded so it also reads in a terminal. */
export function markdownTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

/** The result tables: times with ratios to the baseline, then peak RSS and CPU time; with footnotes. */
export function formatTables(summary, cases, { impls, floors, baseline = BASELINE }) {
  // Ratios to the baseline for z alone (others' ratios to each other say nothing about z); z's
  // ratios to every anchor are in formatAnchorTable's table.
  const others = impls.filter((i) => i !== baseline && (i === "z" || !impls.includes("z")));
  const showRatios = impls.includes(baseline);
  const time = (e) => {
    let text = formatSeconds(e.medianSeconds);
    if (e.medianWarmSeconds !== undefined) text += ` / ${formatSeconds(e.medianWarmSeconds)}`;
    if (e.windowsPerSecond !== undefined) text += ` (${e.windowsPerSecond.toFixed(0)} win/s)`;
    return text;
  };
  const ratio = (e) => {
    if (e.medianRatio === undefined) return "—";
    const rounds = e.ratios.length > 1 ? ` (${e.ratios.map((r) => r.toFixed(2)).join(" ")})` : "";
    return `${formatRatio(e.medianRatio)}${rounds}`;
  };
  const timeHeader = [
    "case",
    ...impls,
    ...(showRatios ? others.map((i) => `${i} / ${baseline} (per round)`) : []),
    ...floors,
  ];
  const timeRows = cases.map((c) => {
    const s = summary[c.id] ?? {};
    return [
      `${c.id} ${c.what}`,
      ...impls.map((i) => cell(s[i], time)),
      ...(showRatios ? others.map((i) => cell(s[i], ratio)) : []),
      ...floors.map((f) => cell(s[f], time)),
    ];
  });
  const anyAfter = cases.some((c) =>
    Object.values(summary[c.id] ?? {}).some((e) => e.medianRssAfterBytes !== undefined),
  );
  const rssHeader = [
    "case",
    ...impls.map((i) => `${i} peak RSS`),
    ...(anyAfter ? impls.map((i) => `${i} RSS after`) : []),
    ...impls.map((i) => `${i} CPU`),
    ...(showRatios ? others.map((i) => `${i} / ${baseline} CPU`) : []),
  ];
  const rssRows = cases.map((c) => {
    const s = summary[c.id] ?? {};
    return [
      c.id,
      ...impls.map((i) => cell(s[i], (e) => formatMiB(e.medianPeakRssBytes))),
      ...(anyAfter ? impls.map((i) => cell(s[i], (e) => formatMiB(e.medianRssAfterBytes))) : []),
      ...impls.map((i) => cell(s[i], (e) => formatSeconds(e.medianCpuSeconds))),
      ...(showRatios ? others.map((i) => cell(s[i], (e) => formatRatio(e.medianCpuRatio))) : []),
    ];
  });
  // The best round of each: noise from other work on the machine only ever adds time.
  const bestHeader = [
    "case",
    ...impls.map((i) => `${i} best`),
    ...(showRatios ? others.map((i) => `${i} / ${baseline} best`) : []),
  ];
  const bestRows = cases.map((c) => {
    const s = summary[c.id] ?? {};
    return [
      c.id,
      ...impls.map((i) => cell(s[i], (e) => formatSeconds(e.minSeconds))),
      ...(showRatios ? others.map((i) => cell(s[i], (e) => formatRatio(e.minRatio))) : []),
    ];
  });
  // Whether each round's process had its memory in 2 MiB pages (see runners' hugePagesBytes).
  const hugeHeader = ["case", ...impls.map((i) => `${i} huge pages`)];
  const hugeRows = cases.map((c) => {
    const s = summary[c.id] ?? {};
    return [
      c.id,
      ...impls.map((i) =>
        cell(
          s[i],
          (e) =>
            `${(e.hugePagesBytes ?? []).map((b) => (b === undefined ? "?" : Math.round(b / 2 ** 20))).join(" ")} MiB`,
        ),
      ),
    ];
  });
  const anyHuge = cases.some((c) =>
    Object.values(summary[c.id] ?? {}).some((e) => (e.hugePagesBytes ?? []).some((b) => b > 0)),
  );
  const notes = [];
  for (const c of cases) {
    for (const [impl, e] of Object.entries(summary[c.id] ?? {})) {
      if (e.status !== "ok" && e.detail) notes.push(`- ${c.id} ${impl} ${e.status}: ${firstLine(e.detail)}`);
    }
  }
  const rounds = Math.max(0, ...Object.values(summary).flatMap((s) => Object.values(s).map((e) => e.rounds ?? 0)));
  const anchorTable = formatAnchorTable(summary, cases, { impls });
  const warm = cases.some((c) => Object.values(summary[c.id] ?? {}).some((e) => e.medianWarmSeconds !== undefined));
  return [
    ...(warm
      ? [
          "Times: cold (the first operation of a fresh process) / warm (the median of operations 2..N in that process).",
          "",
        ]
      : []),
    markdownTable(timeHeader, timeRows),
    "",
    ...(anchorTable
      ? [
          "z's time ÷ each anchor's, per round, cold and warm: median (best–worst round); below 1× z is faster.",
          "",
          anchorTable,
          "",
        ]
      : []),
    markdownTable(rssHeader, rssRows),
    ...(rounds > 1 ? ["", markdownTable(bestHeader, bestRows)] : []),
    ...(anyHuge
      ? [
          "",
          "Memory in transparent huge pages at the end of the timed part, per round (a result in 2 MiB pages takes 512× fewer page faults):",
          "",
          markdownTable(hugeHeader, hugeRows),
        ]
      : []),
    ...(notes.length ? ["", ...notes] : []),
  ].join("\n");
}

const firstLine = (text) => {
  const lines = String(text).trim().split("\n");
  const last = lines.length > 1 && /Error|error/.test(lines.at(-1)) ? lines.at(-1) : lines[0];
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
};

/** `2025-01-31T12-00-00` (UTC), for file names. */
export const stamp = (date = new Date()) => date.toISOString().slice(0, 19).replace(/:/g, "-");
