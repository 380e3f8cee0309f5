// vitest globalSetup: one S3 server (server.ts) per project that needs one, in a process of its
// own, its endpoint handed to the test files through `provide`/`inject("s3Server")` (client.ts).
import type { TestProject } from "vitest/node";
import { spawnS3Server } from "./spawn.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await spawnS3Server();
  project.provide("s3Server", { endpoint: server.endpoint });
  return () => server.close();
}
