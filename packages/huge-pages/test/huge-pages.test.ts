import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adviseHugePages, hugePagesUnavailable } from "@z/huge-pages";

const MiB = 1 << 20;
const linux = process.platform === "linux";
/** Linux's setting for anonymous memory: `always`, `madvise` or `never` (undefined off Linux). */
const mode = linux
  ? /\[(\w+)\]/.exec(readFileSync("/sys/kernel/mm/transparent_hugepage/enabled", "utf8"))?.[1]
  : undefined;
/** This process's memory in huge pages, in bytes. */
const hugeBytes = (): number =>
  Number(/AnonHugePages:\s+(\d+) kB/.exec(readFileSync("/proc/self/smaps_rollup", "utf8"))![1]) * 1024;

describe("adviseHugePages", () => {
  it("is available exactly where the install script built the addon, as it must have in CI", () => {
    const built = existsSync(fileURLToPath(new URL("../build/huge-pages.node", import.meta.url)));
    expect(hugePagesUnavailable() === undefined).toBe(linux && built);
    if (process.env.CI || process.env.Z_REQUIRE_HUGE_PAGES === "1") expect(hugePagesUnavailable()).toBeUndefined();
  });

  it.runIf(linux && hugePagesUnavailable() === undefined)("advises the whole 2 MiB pages inside a view", () => {
    const shared = new Uint8Array(new SharedArrayBuffer(64 * MiB));
    const advised = adviseHugePages(shared);
    // The allocation is not 2 MiB-aligned, so its first and last partial pages are left out.
    expect(advised).toBeGreaterThanOrEqual(62 * MiB);
    expect(advised).toBeLessThanOrEqual(64 * MiB);
    expect(advised % (2 * MiB)).toBe(0);
    // Any typed array or DataView, of any element size, of plain or shared memory.
    expect(adviseHugePages(new Float64Array(8 * MiB))).toBeGreaterThanOrEqual(62 * MiB);
    expect(adviseHugePages(new DataView(new ArrayBuffer(16 * MiB)))).toBeGreaterThanOrEqual(14 * MiB);
  });

  it.runIf(linux && hugePagesUnavailable() === undefined && mode === "madvise")(
    "makes Linux back the memory with huge pages once written",
    () => {
      const before = hugeBytes();
      const data = new Float32Array(new SharedArrayBuffer(64 * MiB));
      const advised = adviseHugePages(data);
      data.fill(1);
      // Linux falls back to small pages where it finds no free 2 MiB, so allow for some.
      expect(hugeBytes() - before).toBeGreaterThanOrEqual(advised / 2);
      const plain = new Float32Array(new SharedArrayBuffer(64 * MiB));
      const between = hugeBytes();
      plain.fill(1);
      expect(hugeBytes() - between).toBeLessThan(4 * MiB);
    },
  );

  it("advises nothing in views without a whole 2 MiB page", () => {
    expect(adviseHugePages(new Uint8Array(MiB))).toBe(0);
    expect(adviseHugePages(new Uint8Array(0))).toBe(0);
    expect(adviseHugePages(new Uint8Array(new ArrayBuffer(8 * MiB), 3 * MiB, MiB))).toBe(0);
  });

  it.runIf(hugePagesUnavailable() === undefined)("refuses what is not a view of memory", () => {
    expect(() => adviseHugePages({} as ArrayBufferView)).toThrow(TypeError);
  });

  describe("with Z_HUGE_PAGES=0", () => {
    afterEach(() => {
      delete process.env.Z_HUGE_PAGES;
      vi.resetModules();
    });

    it("advises nothing and says why", async () => {
      vi.resetModules();
      process.env.Z_HUGE_PAGES = "0";
      const fresh = await import("@z/huge-pages");
      expect(fresh.hugePagesUnavailable()).toMatch(/Z_HUGE_PAGES=0/);
      expect(fresh.adviseHugePages(new Uint8Array(16 * MiB))).toBe(0);
    });
  });
});
