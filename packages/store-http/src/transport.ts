import type { Transport } from "@z/http-client";

// The seam between the client and whatever sends the bytes lives in @z/http-client; here only
// which transport this package's stores use by default.
export { isOk, type Transport, type TransportRequest, type TransportResponse } from "@z/http-client";

let defaultTransport: Transport | undefined;

/**
 * Sets what stores made from then on use when their options name no `fetch`; `undefined` for
 * `fetch` (the default). The `node` entry (index-node.ts) sets the Node transport.
 */
export function setDefaultTransport(transport: Transport | undefined): void {
  defaultTransport = transport;
}

/** The transport set by {@link setDefaultTransport}, if any. */
export function getDefaultTransport(): Transport | undefined {
  return defaultTransport;
}
