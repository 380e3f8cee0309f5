// For test files: the S3 server global-setup.ts started, and buckets on it. Uses only `fetch`,
// so it runs wherever the store does.
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    s3Server: { endpoint: string };
  }
}

/** The one account the test server knows (s3rver's). */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

/** A session token the test server answers with `400 ExpiredToken` (server.ts). */
export const EXPIRED_SESSION_TOKEN = "expired-session-token";

/** `http://127.0.0.1:<port>`, the test S3 server's endpoint. */
export function s3Endpoint(): string {
  return inject("s3Server").endpoint;
}

let made = 0;

/** Creates a new, empty bucket with a name no other test uses, and returns its name. */
export async function createBucket(stem = "z-test"): Promise<string> {
  const name = `${stem}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${++made}`;
  // s3rver lets anonymous requests create buckets (S3 would not).
  const response = await fetch(`${s3Endpoint()}/${name}`, { method: "PUT" });
  if (!response.ok) throw new Error(`creating bucket ${name}: ${response.status} ${await response.text()}`);
  return name;
}
