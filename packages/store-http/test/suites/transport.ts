// The transports the suites run against: each suite is a function of one, called by a test file
// per transport (test/*.test.ts for fetch, in Node and in Chromium; test/node/*.test.ts for
// the Node transport, which import the package's Node entry first, as Node's `node` condition
// does: the test servers are on http: URLs, so there it is our own HTTP/1.1 client, http1.ts).

export interface TransportUnderTest {
  /** As it appears in test names. */
  name: "fetch" | "node:http";
  /** How a refused connection reads in the final error. */
  refused: RegExp;
}

export const fetchUnderTest: TransportUnderTest = {
  name: "fetch",
  // undici says "fetch failed", Chromium "Failed to fetch".
  refused: /failed after 2 attempts: network error: .*fetch/i,
};

export const nodeHttpUnderTest: TransportUnderTest = {
  name: "node:http",
  refused: /failed after 2 attempts: network error: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
};
