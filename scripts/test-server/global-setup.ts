// vitest globalSetup (Node and browser runs): one shared test server per project, its address
// handed to the test files through `provide`/`inject("testServer")` (see client.ts).
import type { TestProject } from "vitest/node";
import { startTestServer } from "./server.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer();
  project.provide("testServer", { url: server.url, refusedUrl: server.refusedUrl });
  return () => server.close();
}
