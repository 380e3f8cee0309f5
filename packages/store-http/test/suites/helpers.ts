import { expect } from "vitest";
import { HttpStore, type HttpStoreError, type HttpStoreOptions } from "@z/store-http";
import {
  sessionPool,
  toBase64,
  type Fault,
  type FaultAction,
  type LoggedRequest,
  type Session,
  type SessionConfig,
} from "../../../../scripts/test-server/client.js";

// What the suites share: sessions on the shared test server (scripts/test-server/) and a store on
// each, with faults spelled briefly.

/** Sessions a suite opened; end them after each test (`afterEach(() => pool.endAll())`). */
export const pool = sessionPool();

export const value = new TextEncoder().encode("the value of the key");
/** The session's values: `value` under `/root/k` (and the given paths). */
export const holding = (...paths: string[]): Record<string, string> =>
  Object.fromEntries(["/root/k", ...paths].map((path) => [path, toBase64(value)]));
export const respond = (status: number, headers: Record<string, string> = {}, body?: Uint8Array): FaultAction => ({
  respond: { status, headers, ...(body === undefined ? {} : { bodyBase64: toBase64(body) }) },
});
export const on = (requests: number[], action: FaultAction): Fault => ({ requests, action });
export const always = (action: FaultAction): Fault => ({ action });

/**
 * A session behaving as `config` says and a store on its `/root/`, retrying fast by default. No
 * short `timeout`: on a loaded machine an attempt that took longer would be retried, and the
 * requests a test counts would not be those it made (tests of timeouts set their own).
 */
export async function setup(
  config: SessionConfig,
  options: HttpStoreOptions = {},
): Promise<{ session: Session; store: HttpStore }> {
  const session = await pool.open(config);
  return {
    session,
    store: new HttpStore(`${session.url}root/`, { retryDelay: 1, maxRetryDelay: 10, ...options }),
  };
}
export const requests = async (session: Session) => (await session.log()).requests;
/** Asks the session's log until `ready` holds: an event to wait for, not a time. */
export async function logged(session: Session, ready: (log: LoggedRequest[]) => boolean): Promise<void> {
  while (!ready(await requests(session))) await new Promise((resolve) => setTimeout(resolve, 5));
}
export const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("it succeeded"),
    (err: unknown) => err as HttpStoreError,
  );
