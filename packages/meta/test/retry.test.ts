import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelay } from "../src/retry.js";

describe("backoff", () => {
  it("doubles from the base, with jitter in the upper half, capped", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, 100, 10_000, undefined, () => 0))).toEqual([
      50, 100, 200, 400,
    ]);
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, 100, 10_000, undefined, () => 1))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(retryDelay(20, 100, 10_000, undefined, () => 1)).toBe(10_000);
  });

  it("waits at least as long as Retry-After asks, up to the cap", () => {
    expect(retryDelay(1, 100, 10_000, 3_000, () => 0)).toBe(3_000);
    expect(retryDelay(1, 100, 10_000, 60_000, () => 0)).toBe(10_000);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
