import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adviseHugePages, hugePagesAdvised, hugePagesUnavailable } from "@z/huge-pages";

const MiB = 1 << 20;
const linux = process.platform === "linux";

describe("adviseHugePages", () => {
  it("is available exactly where the install script built the addon, as it must have on Linux", () => {
    const built = existsSync(fileURLToPath(new URL("../build/huge-pages.node", import.meta.url)));
    expect(hugePagesUnavailable() === undefined).toBe(linux && built);
    // On Linux the tests need the addon: `bash scripts/ensure-tools.sh` (pnpm test:all's first step) builds it.
    if (linux)
      expect(hugePagesUnavailable(), "run 'bash scripts/ensure-tools.sh' (needs a C compiler)").toBeUndefined();
  });

  it.runIf(linux)("advises the whole 2 MiB pages inside a view", () => {
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

  // What Linux holds for the memory (the advice), not what it granted: whether it finds free 2 MiB
  // pages when the memory is first written depends on the machine (apps/bench reports that).
  it.runIf(linux)("leaves the advice on the memory it advised, and only there", () => {
    const data = new Float32Array(new SharedArrayBuffer(64 * MiB));
    expect(hugePagesAdvised(data)).toBe(0);
    const advised = adviseHugePages(data);
    expect(hugePagesAdvised(data)).toBe(advised);
    data.fill(1);
    expect(hugePagesAdvised(data)).toBe(advised);
    // Asked of a view, it counts that view's bytes: 4 MiB from the middle are all advised.
    expect(hugePagesAdvised(data.subarray(8 * MiB, 9 * MiB))).toBe(4 * MiB);
    // Another buffer, never advised, holds none.
    const plain = new Float32Array(new SharedArrayBuffer(64 * MiB));
    plain.fill(1);
    expect(hugePagesAdvised(plain)).toBe(0);
    expect(hugePagesAdvised(new Uint8Array(0))).toBe(0);
  });

  it("advises nothing in views without a whole 2 MiB page", () => {
    expect(adviseHugePages(new Uint8Array(MiB))).toBe(0);
    expect(adviseHugePages(new Uint8Array(0))).toBe(0);
    expect(adviseHugePages(new Uint8Array(new ArrayBuffer(8 * MiB), 3 * MiB, MiB))).toBe(0);
  });

  it.runIf(linux)("refuses what is not a view of memory", () => {
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
