// vitest globalSetup: one S3 server (server.ts) per project that needs one, its endpoint handed to
// the test files through `provide`/`inject("s3Server")` (see client.ts).
import type { TestProject } from "vitest/node";
import { startS3Server } from "./server.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startS3Server();
  project.provide("s3Server", { endpoint: server.endpoint });
  return () => server.close();
}
