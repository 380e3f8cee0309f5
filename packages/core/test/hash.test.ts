import { createHash as nodeHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHash, type HashName } from "../src/hash.js";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

describe("the incremental hashes behind digest()", () => {
  it.each(["sha1", "sha256"] as HashName[])("%s agrees with node:crypto for any length and any split", (name) => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 70_000]) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
      const h = createHash(name);
      const cut = Math.floor(length / 3);
      h.update(data.subarray(0, cut));
      h.update(data.subarray(cut));
      expect(hex(h.digest())).toBe(nodeHash(name).update(data).digest("hex"));
    }
  });
});
