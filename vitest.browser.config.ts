// `pnpm test:browser`: the browser-safe packages' tests in real headless Chromium (Debian's, see
// scripts/ensure-chromium.sh). Which files run here is computed by scripts/browser-tests.mjs: those
// that need nothing of Node but what scripts/browser-shims/ stands in for (fixture reads, Buffer);
// `pnpm test` still runs every file in Node.
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { browserTestPlan, shimAliases, shimSetup } from "./scripts/browser-tests.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { encodersSetup, s3ServerSetup, testServerSetup, workspaceAliases } from "./vitest.shared.ts";

/** Whether the package's own vitest config starts the test S3 server (scripts/test-s3/). */
const usesS3 = (dir: string): boolean => readFileSync(join(dir, "vitest.config.ts"), "utf8").includes("s3ServerSetup");

const chromium = playwright({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // Offline and quiet: without the networking flags Chromium tries to reach the internet. Each run
    // gets a fresh temporary profile (playwright.launch, not a persistent context).
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Containers often have a small /dev/shm, where Chromium would run out of shared memory.
      "--disable-dev-shm-usage",
    ],
  },
});

export default defineConfig({
  test: {
    projects: browserTestPlan()
      .filter((pkg) => pkg.browser.length > 0)
      .map((pkg) => ({
        resolve: { alias: [...workspaceAliases, ...shimAliases] },
        // Cross-origin isolation, as a page using SharedArrayBuffer (SharedSynchronizer) needs.
        server: {
          headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
        },
        test: {
          name: pkg.name,
          root: pkg.dir,
          include: pkg.browser,
          setupFiles: [shimSetup, encodersSetup],
          // The shared test HTTP server (scripts/test-server/), as in the Node run: tests reach it
          // across origins (it answers CORS preflights) through inject("testServer").
          // The S3 server too for the packages that use it (it answers CORS as well).
          globalSetup: [testServerSetup, ...(usesS3(pkg.dir) ? [s3ServerSetup] : [])],
          // Generous limits: two cores and one browser for every project.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            provider: chromium,
            instances: [{ browser: "chromium" as const }],
            screenshotFailures: false,
            // Every project starts a browser session at once (after optimizing its dependencies on
            // a fresh checkout): on two cores, 30 s (the default) ran out before all connected.
            connectTimeout: 300_000,
          },
        },
      })),
  },
});
