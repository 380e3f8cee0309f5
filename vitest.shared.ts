import { fileURLToPath } from "node:url";

const packages = fileURLToPath(new URL("./packages/", import.meta.url));

/** Resolve `@z/x` and `@z/x/sub` to sources, so tests never need a build. */
export const workspaceAliases = [
  { find: /^@z\/([a-z0-9-]+)$/, replacement: `${packages}$1/src/index.ts` },
  { find: /^@z\/([a-z0-9-]+)\/([a-z0-9-]+)$/, replacement: `${packages}$1/src/$2.ts` },
];

/**
 * vitest `globalSetup` starting the shared test HTTP server (scripts/test-server/), for projects
 * whose tests run against one, in Node and in the browser.
 */
export const testServerSetup = fileURLToPath(new URL("./scripts/test-server/global-setup.ts", import.meta.url));

/**
 * vitest `globalSetup` starting the test S3 server (scripts/test-s3/: s3rver behind a SigV4 check),
 * for projects whose tests read and write buckets.
 */
export const s3ServerSetup = fileURLToPath(new URL("./scripts/test-s3/global-setup.ts", import.meta.url));

/**
 * vitest `setupFiles` entry registering every encoder, as Node's entries of the codec packages and
 * of `@z/core` do (see scripts/test-setup/encoders.ts).
 */
export const encodersSetup = fileURLToPath(new URL("./scripts/test-setup/encoders.ts", import.meta.url));

/**
 * The limits of every Node project's tests and hooks. They only bound a wait (a test that hangs
 * fails at them), so they are generous: vitest's defaults, 5 s a test and 10 s a hook, are missed
 * by tests that take 1-3 s on a quiet machine once the machine runs other test files and other
 * work beside them (one such decompression-bomb test took 6.4 s under load). Projects and tests
 * that set their own keep theirs.
 */
export const generousTimeouts = { testTimeout: 60_000, hookTimeout: 120_000 };
