import { buildDist } from "./built-dist.js";

/**
 * Builds @z/core's dist/ before any test file runs when it is stale (after an edit without
 * `pnpm build`): the tests that load dist/ (packages.test.ts, the thread pool's bundle) must not
 * start while it is being written.
 */
export default function setup(): void {
  buildDist();
}
