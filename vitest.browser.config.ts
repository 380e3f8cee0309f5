// `pnpm test:browser`: the browser-safe packages' tests in real headless Chromium (Debian's, see
// scripts/ensure-chromium.sh). Which files run here is computed by scripts/browser-tests.mjs: those
// that need nothing of Node but what scripts/browser-shims/ stands in for (fixture reads, Buffer);
// `pnpm test` still runs every file in Node.
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { browserTestPlan, shimAliases, shimSetup } from "./scripts/browser-tests.mjs";
import { encodersSetup, testServerSetup, workspaceAliases } from "./vitest.shared.ts";

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
          globalSetup: [testServerSetup],
          // Generous limits: two cores and one browser for every project.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            provider: chromium,
            instances: [{ browser: "chromium" as const }],
            screenshotFailures: false,
          },
        },
      })),
  },
});
