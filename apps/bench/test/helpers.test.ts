import { createHash } from "node:crypto";
import { request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CASE_IDS, caseById } from "../src/cases.mjs";
import { chunkOf, formatCodecTable, summarizeCodecs } from "../src/codec-rows.mjs";
import { formatHttpTable } from "../src/http-requests.mjs";
import { parseRange, serveDirectory } from "../src/http-server.mjs";
import {
  checksumProblems,
  formatAnchorTable,
  formatTables,
  markdownTable,
  median,
  parseArgs,
  summarize,
} from "../src/lib.mjs";
import { selfTimes, summarizeProfile } from "../src/profile.mjs";
import { requestHeadBytes, startProxy } from "../src/s3.mjs";
import { bytesOf, checksum, foldOperations } from "../runners/common.mjs";

describe("median", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
  });
  it("ignores what is not a number and is undefined for nothing", () => {
    expect(median([])).toBeUndefined();
    expect(median([undefined, 2, Number.NaN, 4] as number[])).toBe(3);
  });
  it("does not reorder its input", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe("checksum", () => {
  it("is SHA-256 of the elements' little-endian bytes, as the Python runner computes it", () => {
    const data = new Float32Array([1, -2.5, 3]);
    const expected = createHash("sha256").update(Buffer.from(data.buffer)).digest("hex");
    expect(checksum([data])).toBe(expected);
    // hashlib.sha256(np.array([1, -2.5, 3], dtype="<f4").tobytes()).hexdigest()
    expect(checksum([data])).toBe("5e4d73fb7853c6947a59215cb3fb869bc3bf8f59c358e094b541a9f9eed1e7c8");
  });
  it("hashes only a view's elements, and several parts as their concatenation", () => {
    const whole = new Int16Array([1, 2, 3, 4, 5, 6]);
    const view = whole.subarray(2, 4);
    expect(checksum([view])).toBe(checksum([new Int16Array([3, 4])]));
    expect(checksum([whole.subarray(0, 2), whole.subarray(2)])).toBe(checksum([whole]));
    expect(bytesOf(view).length).toBe(4);
  });
});

describe("parseArgs", () => {
  it("defaults to every case and implementation, 3 rounds of 5 operations per process, full size", () => {
    const o = parseArgs([]);
    expect(o.cases).toEqual([...CASE_IDS, "codecs"]);
    expect(o.impls).toEqual(["z", "zarrita", "zarr-python", "tensorstore"]);
    expect(o.rounds).toBe(3);
    expect(o.repeat).toBe(5);
    expect(parseArgs(["--repeat", "7"]).repeat).toBe(7);
    expect(o.sizes.n).toBe(8192);
  });
  it("--quick is one round of smaller data; --cases filters in the cases' order", () => {
    const o = parseArgs(["--quick", "--cases", "R6,R1"]);
    expect(o.rounds).toBe(1);
    expect(o.sizes.n).toBeLessThan(8192);
    expect(o.cases).toEqual(["R1", "R6"]);
    expect(parseArgs(["--cases=R2", "--rounds=5"]).rounds).toBe(5);
  });
  it("refuses unknown cases and options", () => {
    expect(() => parseArgs(["--cases", "R99"])).toThrow(/unknown case/);
    expect(() => parseArgs(["--fast"])).toThrow(/unknown option/);
    expect(() => parseArgs(["--rounds", "0"])).toThrow(/positive integer/);
    expect(() => parseArgs(["--report"])).toThrow(/needs a results file/);
  });
});

describe("checksumProblems", () => {
  const expected = { R1: "a".repeat(64), W1: "b".repeat(64) };
  it("passes runs that match the data", () => {
    const runs = [
      { impl: "z", case: "R1", round: 1, status: "ok", checksum: "a".repeat(64) },
      { impl: "zarr-python", case: "R1", round: 1, status: "ok", checksum: "a".repeat(64) },
      { impl: "zarrita", case: "R1", round: 1, status: "unsupported" },
    ];
    expect(checksumProblems(runs, expected)).toEqual([]);
  });
  it("reports a run that differs from the data or from another implementation", () => {
    const runs = [
      { impl: "zarr-python", case: "R1", round: 1, status: "ok", checksum: "a".repeat(64) },
      { impl: "z", case: "R1", round: 2, status: "ok", checksum: "c".repeat(64) },
      { impl: "z", case: "W1", round: 1, status: "ok", checksum: "b".repeat(64), sourceChecksum: "d".repeat(64) },
    ];
    const problems = checksumProblems(runs, expected);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^R1 z round 2: checksum cccc/);
    expect(problems[1]).toMatch(/differs from zarr-python round 1/);
    expect(problems[2]).toMatch(/^W1 z round 1: wrote data/);
  });
});

describe("repeated operations in one process", () => {
  it("fold into the first (cold), the median of the rest (warm), and RSS after the last", () => {
    const ops = [4, 1, 3, 2, 9].map((seconds, i) => ({ seconds, cpuSeconds: seconds * 2, checksum: "c", peak: i }));
    const folded = foldOperations(ops, 123);
    expect(folded).toMatchObject({
      seconds: 4,
      cpuSeconds: 8,
      checksum: "c",
      peak: 0,
      warmSeconds: 2.5,
      warmCpuSeconds: 5,
      rssAfterBytes: 123,
    });
    expect(folded.opSeconds).toEqual([4, 1, 3, 2, 9]);
    expect(foldOperations(ops.slice(0, 1), 1).warmSeconds).toBeUndefined();
  });

  it("give z's ratio to every anchor, cold and warm, per round, with the best and worst", () => {
    const run = (impl: string, round: number, seconds: number, warmSeconds: number) => ({
      impl,
      case: "R1",
      round,
      status: "ok",
      seconds,
      warmSeconds,
      cpuSeconds: 1,
    });
    const runs = [
      run("z", 1, 2, 1),
      run("tensorstore", 1, 1, 1),
      run("zarr-python", 1, 4, 2),
      run("z", 2, 3, 0.5),
      run("tensorstore", 2, 1, 1),
      run("zarr-python", 2, 4, 2),
      run("z", 3, 1, 2),
      run("tensorstore", 3, 1, 1),
      run("zarr-python", 3, 4, 2),
    ];
    const summary = summarize(runs, { cases: ["R1"], impls: ["z", "zarr-python", "tensorstore"] });
    const vs = summary.R1!.z!.vs;
    expect(vs.tensorstore.cold).toEqual({ ratios: [2, 3, 1], median: 2, best: 1, worst: 3 });
    expect(vs.tensorstore.warm).toEqual({ ratios: [1, 0.5, 2], median: 1, best: 0.5, worst: 2 });
    expect(vs["zarr-python"].warm.median).toBe(0.5);
    expect(vs.zarrita).toBeUndefined();
    expect(summary.R1!.z!.medianWarmSeconds).toBe(1);
    const table = formatAnchorTable(summary, [caseById("R1")], { impls: ["z", "zarr-python", "tensorstore"] })!;
    expect(table).toContain(
      "| z ÷ zarr-python cold | z ÷ zarr-python warm | z ÷ tensorstore cold | z ÷ tensorstore warm |",
    );
    expect(table).toMatch(
      /\| R1 +\| 0.50× \(0.25–0.75\) +\| 0.50× \(0.25–1.00\) +\| 2.00× \(1.00–3.00\) +\| 1.00× \(0.50–2.00\) +\|/,
    );
    const text = formatTables(summary, [caseById("R1")], { impls: ["z", "zarr-python", "tensorstore"], floors: [] });
    expect(text).toContain("| 2.00 s / 1.00 s");
  });
});

describe("summarize and formatTables", () => {
  const runs = [
    { impl: "z", case: "R1", round: 1, status: "ok", seconds: 2, cpuSeconds: 2, peakRssBytes: 100 * 2 ** 20 },
    {
      impl: "zarr-python",
      case: "R1",
      round: 1,
      status: "ok",
      seconds: 1,
      cpuSeconds: 1,
      peakRssBytes: 50 * 2 ** 20,
      hugePagesBytes: 256 * 2 ** 20,
    },
    {
      impl: "z",
      case: "R1",
      round: 2,
      status: "ok",
      seconds: 3,
      cpuSeconds: 3,
      peakRssBytes: 120 * 2 ** 20,
      hugePagesBytes: 0,
    },
    {
      impl: "zarr-python",
      case: "R1",
      round: 2,
      status: "ok",
      seconds: 1,
      cpuSeconds: 1,
      peakRssBytes: 50 * 2 ** 20,
      hugePagesBytes: 0,
    },
    { impl: "z", case: "R6", round: 1, status: "ok", seconds: 4, cpuSeconds: 4, peakRssBytes: 1, windows: 2000 },
    { impl: "zarr-python", case: "R6", round: 1, status: "unsupported", detail: "no codec" },
  ];
  const summary = summarize(runs, { cases: ["R1", "R6"], impls: ["z", "zarr-python"] });
  it("takes medians over rounds and ratios within each round", () => {
    expect(summary.R1!.z!.medianSeconds).toBe(2.5);
    expect(summary.R1!.z!.ratios).toEqual([2, 3]);
    expect(summary.R1!.z!.medianRatio).toBe(2.5);
    expect(summary.R1!.z!.medianPeakRssBytes).toBe(110 * 2 ** 20);
    expect(summary.R1!.z!.medianCpuRatio).toBe(2.5);
    expect(summary.R1!.z!.minSeconds).toBe(2);
    expect(summary.R1!.z!.minRatio).toBe(2);
    expect(summary.R1!["zarr-python"]!.medianRatio).toBeUndefined();
    expect(summary.R6!.z!.windowsPerSecond).toBe(500);
    expect(summary.R6!.z!.medianRatio).toBeUndefined();
    expect(summary.R6!["zarr-python"]!.status).toBe("unsupported");
  });
  it("prints times, per-round ratios, RSS and why a case did not run", () => {
    const text = formatTables(summary, [caseById("R1"), caseById("R6")], { impls: ["z", "zarr-python"], floors: [] });
    expect(text).toContain("| R1 full read, blosc lz4 clevel 5 shuffle | 2.50 s");
    expect(text).toContain("2.50× (2.00 3.00)");
    expect(text).toContain("4.00 s (500 win/s)");
    expect(text).toContain("110 MiB");
    expect(text).toMatch(/\| R1 +\| 110 MiB +\| 50 MiB +\| 2.50 s +\| 1.00 s +\| 2.50× +\|/);
    expect(text).toMatch(/\| R6 .*\| unsupported/);
    expect(text).toContain("- R6 zarr-python unsupported: no codec");
    expect(text).toContain("| z best | zarr-python best | z / zarr-python best |");
    expect(text).toMatch(/\| R1 +\| 2.00 s +\| 1.00 s +\| 2.00× +\|/);
  });
  it("prints, per round, how much of each process's memory was in huge pages", () => {
    const text = formatTables(summary, [caseById("R1")], { impls: ["z", "zarr-python"], floors: [] });
    expect(text).toContain("| z huge pages | zarr-python huge pages |");
    expect(text).toMatch(/\| R1 +\| \? 0 MiB +\| 256 0 MiB +\|/);
    const none = summarize(
      runs.map((r) => ({ ...r, hugePagesBytes: 0 })),
      { cases: ["R1"], impls: ["z", "zarr-python"] },
    );
    expect(formatTables(none, [caseById("R1")], { impls: ["z", "zarr-python"], floors: [] })).not.toContain(
      "huge pages",
    );
  });
  it("pads every column to one width", () => {
    const table = markdownTable(["a", "bb"], [["xxx", "y"]]).split("\n");
    expect(table).toEqual(["| a   | bb |", "|-----|----|", "| xxx | y  |"]);
  });
});

describe("parseRange", () => {
  it("reads single byte ranges as HTTP does", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=95-200", 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange("bytes=0-1,5-6", 100)).toBeUndefined();
  });
});

describe("profile summary", () => {
  it("adds up self time per function from the samples' time deltas", () => {
    const frame = (functionName: string, lineNumber: number) => ({
      functionName,
      url: "file:///repo/x.js",
      lineNumber,
      columnNumber: 0,
    });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(root)", -1) },
        { id: 2, callFrame: frame("decode", 9) },
        { id: 3, callFrame: frame("copy", 19) },
      ],
      samples: [2, 2, 3, 2],
      timeDeltas: [0, 1000, 3000, 2000],
    };
    const list = selfTimes(profile, { root: "/repo" });
    expect(list.map((e) => [e.name, e.selfMs, e.where])).toEqual([
      ["decode", 4, "x.js:10"],
      ["copy", 2, "x.js:20"],
    ]);
    expect(summarizeProfile(profile, { root: "/repo" })).toContain("| 4 ms | 66.7%");
  });
});

describe("codec rows", () => {
  it("take the first chunk out of the C-order source", () => {
    // A 4x4 source of 4-byte elements numbered 0..15; its top-left 2x2 chunk is 0, 1, 4, 5.
    const source = new Uint8Array(new Float32Array(Array.from({ length: 16 }, (_, i) => i)).buffer);
    expect(Array.from(new Float32Array(chunkOf(source, 4, 2).buffer))).toEqual([0, 1, 4, 5]);
  });

  it("--cases codecs picks only the codec rows", () => {
    expect(parseArgs(["--cases", "codecs"]).cases).toEqual(["codecs"]);
    expect(parseArgs(["--cases", "W1,codecs"]).cases).toEqual(["W1", "codecs"]);
  });

  it("summarize each side's median over rounds and divide z by numcodecs", () => {
    const row = (name: string, encodeMBps: number, ratio: number) => ({
      name,
      encodeMBps,
      decodeMBps: 2 * encodeMBps,
      encodeCpuMBps: encodeMBps,
      decodeCpuMBps: encodeMBps,
      ratio,
    });
    const runs = [
      { impl: "z", round: 1, status: "ok", rows: [row("zlib 1", 50, 1.11)] },
      { impl: "z", round: 2, status: "ok", rows: [row("zlib 1", 70, 1.11)] },
      { impl: "numcodecs", round: 1, status: "ok", rows: [row("zlib 1", 40, 1.1)] },
      { impl: "numcodecs", round: 2, status: "error", detail: "crashed" },
    ];
    const summary = summarizeCodecs(runs, median);
    const zlib = summary.find((s: { name: string }) => s.name === "zlib 1")!;
    expect(zlib.z.encodeMBps).toBe(60);
    expect(zlib.encode).toBeCloseTo(1.5);
    expect(zlib.decode).toBeCloseTo(1.5);
    expect(zlib.ratio).toBeCloseTo(1.11 / 1.1);
    // A codec nobody measured has no ratios.
    expect(summary.find((s: { name: string }) => s.name === "lz4")!.encode).toBeUndefined();
    const table = formatCodecTable(summary, markdownTable);
    expect(table).toMatch(/\| zlib 1 +\| 60\.0 +\| 40\.0 +\| 1\.50× /);
    expect(table).toContain("+0.9%");
  });

  it("list numcodecs' decode of z's encoding failing as an error under the table", () => {
    const runs = [
      { impl: "z", round: 1, status: "ok", rows: [{ name: "gzip 1", encodeMBps: 1, decodeMBps: 1, ratio: 1 }] },
      {
        impl: "numcodecs",
        round: 1,
        status: "ok",
        rows: [
          {
            name: "gzip 1",
            encodeMBps: 1,
            decodeMBps: 1,
            ratio: 1,
            error: "numcodecs decoded z's encoding to different bytes",
          },
        ],
      },
    ];
    const summary = summarizeCodecs(runs, median);
    expect(formatCodecTable(summary, markdownTable)).toContain(
      "- gzip 1 numcodecs: numcodecs decoded z's encoding to different bytes",
    );
  });
});

describe("the S3 cases' proxy", () => {
  it("--cases s3 selects the S3 cases", () => {
    expect(parseArgs(["--cases", "s3"]).cases).toEqual(["S1", "S2", "S3"]);
    expect(parseArgs(["--cases", "R1,s3"]).cases).toEqual(["R1", "S1", "S2", "S3"]);
  });

  it("counts a request head's bytes: its line, each header and the blank line", () => {
    expect(requestHeadBytes("GET", "/a", ["Host", "x"])).toBe("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".length);
  });

  it("counts a request's line and headers as the bytes the client put on the wire", async () => {
    // A raw TCP server standing in for S3: it records the bytes of the request head it receives.
    let received = "";
    const upstream = createServer((socket) => {
      socket.on("data", (data) => {
        received += data.toString("latin1");
        if (received.includes("\r\n\r\n"))
          socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
      });
    });
    await new Promise<void>((ok) => upstream.listen(0, "127.0.0.1", ok));
    const port = (upstream.address() as { port: number }).port;
    const proxy = await startProxy(`http://127.0.0.1:${port}`);
    try {
      proxy.setDelay(30);
      const started = performance.now();
      const status = await new Promise<number>((ok, fail) => {
        const req = request(`${proxy.url}/bucket/r1.zarr/0.0`, {
          headers: {
            authorization: "AWS4-HMAC-SHA256 Credential=X/20261127/us-east-1/s3/aws4_request",
            "x-amz-date": "20261127T000000Z",
          },
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => ok(res.statusCode ?? 0));
        });
        req.on("error", fail);
        req.end();
      });
      expect(status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(29);
      const stats = proxy.stats();
      expect(stats.requests).toBe(1);
      expect(stats.maxInFlight).toBe(1);
      // The proxy forwards the head unchanged but for the connection header its agent sets, so
      // what the upstream received is what the client sent, give or take that one header.
      const head = received.slice(0, received.indexOf("\r\n\r\n") + 4);
      const connection = /\r\nconnection: [^\r]*/i.exec(head)?.[0].length ?? 0;
      expect(Math.abs(stats.headBytes - head.length)).toBeLessThanOrEqual(connection + 2);
      expect(stats.headBytes).toBeGreaterThan(100);
    } finally {
      await proxy.close();
      upstream.close();
    }
  });
});

describe("the HTTP cases' file server", () => {
  it("counts requests, ranged and suffix-ranged ones, 404s and body bytes until reset", async () => {
    const root = mkdtempSync(join(tmpdir(), "z-bench-http-"));
    mkdirSync(join(root, "a.zarr", "c", "0"), { recursive: true });
    writeFileSync(join(root, "a.zarr", "c", "0", "0"), new Uint8Array(100));
    const server = await serveDirectory(root);
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}/${path}`, { headers });
      await response.arrayBuffer();
      return response.status;
    };
    try {
      expect(await get("a.zarr/c/0/0")).toBe(200);
      expect(await get("a.zarr/c/0/0", { range: "bytes=-20" })).toBe(206);
      expect(await get("a.zarr/c/0/0", { range: "bytes=10-19" })).toBe(206);
      expect(await get("a.zarr/.zarray")).toBe(404);
      const stats = server.stats();
      expect(stats).toMatchObject({ requests: 4, ranged: 2, suffixRanged: 1, notFound: 1, bodyBytes: 130 });
      expect(stats.byMethod).toEqual({ GET: 4 });
      expect(stats.maxInFlight).toBe(1);
      server.reset();
      expect(server.stats()).toMatchObject({ requests: 0, ranged: 0, bodyBytes: 0, byMethod: {} });
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("holds every response back by the delay set when it arrived (H3's 20 ms per request)", async () => {
    const root = mkdtempSync(join(tmpdir(), "z-bench-http-"));
    writeFileSync(join(root, "data.nc"), new Uint8Array(64));
    const server = await serveDirectory(root);
    const answered: string[] = [];
    const get = (name: string) =>
      fetch(`${server.url}/data.nc`, { headers: { range: "bytes=0-15" } })
        .then((response) => response.arrayBuffer())
        .then((body) => answered.push(`${name} ${body.byteLength}`));
    try {
      server.setDelay(1000);
      const held = get("held");
      while (server.stats().requests < 1) await new Promise((done) => setTimeout(done, 5));
      // The first request is being held; one that arrives with no delay set is answered first.
      server.setDelay(0);
      await get("prompt");
      await held;
      expect(answered).toEqual(["prompt 16", "held 16"]);
      expect(server.stats()).toMatchObject({ requests: 2, ranged: 2, maxInFlight: 2 });
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("gives the counts per operation in a table, with requests by method", () => {
    const h2 = { id: "H2", kind: "http" };
    const http = (requests: number, ranged: number) => ({
      requests,
      byMethod: { GET: requests - 3, HEAD: 3 },
      ranged,
      suffixRanged: 0,
      notFound: 0,
      bodyBytes: 3 * 2 ** 20,
      maxInFlight: 8,
    });
    const runs = [
      { impl: "zarrita", case: "H2", round: 1, status: "ok", opSeconds: [1, 1, 1], http: http(201, 195) },
      { impl: "z", case: "H2", round: 1, status: "error" },
    ];
    const table = formatHttpTable(runs, [h2, { id: "R1", kind: "read" }], ["z", "zarrita"]) ?? "";
    expect(table).toContain("| H2   | zarrita | 67            | GET 66, HEAD 1");
    expect(table).toContain("| 65          |");
    expect(table).toContain("1.0 MiB");
    expect(table).not.toContain("| z ");
    expect(formatHttpTable(runs, [{ id: "R1", kind: "read" }], ["z"])).toBeUndefined();
    // The reference-set case is served by the same server, and counted the same way.
    const h3 = [{ impl: "z", case: "H3", round: 1, status: "ok", opSeconds: [1, 1], http: http(26, 24) }];
    expect(formatHttpTable(h3, [{ id: "H3", kind: "references" }], ["z"])).toContain("| H3   | z    | 13 ");
  });
});
