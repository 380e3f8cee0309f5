// For test files, in Node and in Chromium: sessions on the shared test server (server.ts), which
// vitest's globalSetup started (global-setup.ts). Uses only `fetch`, so it runs in both.
import { inject } from "vitest";
import type { SessionConfig, SessionLog, TestServerInfo } from "./sessions.js";

export type { Fault, FaultAction, LoggedRequest, SessionConfig, SessionLog } from "./sessions.js";

declare module "vitest" {
  export interface ProvidedContext {
    testServer: TestServerInfo;
  }
}

/** The shared server's address, and one on which connections are refused. */
export function testServer(): TestServerInfo {
  return inject("testServer");
}

export interface Session {
  /** The session's base URL, ending in `/`: `<server>/s/<id>/`. */
  url: string;
  /** What the session was asked so far. */
  log(): Promise<SessionLog>;
  /** Ends stalled responses and forgets the session. */
  end(): Promise<void>;
}

/** A fresh namespace on the shared server behaving as `config` says. */
export async function openSession(config: SessionConfig = {}): Promise<Session> {
  const { url } = testServer();
  const response = await fetch(`${url}/__sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(config),
  });
  if (!response.ok) throw new Error(`the test server refused the session: ${response.status}`);
  const { id } = (await response.json()) as { id: string };
  return {
    url: `${url}/s/${id}/`,
    log: async () => (await fetch(`${url}/__sessions/${id}/log`)).json() as Promise<SessionLog>,
    end: async () => void (await fetch(`${url}/__sessions/${id}`, { method: "DELETE" })),
  };
}

/** Sessions opened through it are ended by `endAll()` (call it in `afterEach`). */
export function sessionPool(): { open(config?: SessionConfig): Promise<Session>; endAll(): Promise<void> } {
  const open: Session[] = [];
  return {
    async open(config) {
      const session = await openSession(config);
      open.push(session);
      return session;
    },
    async endAll() {
      await Promise.all(open.splice(0).map((session) => session.end()));
    },
  };
}

/** Base64 of `bytes`, for fault bodies. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
