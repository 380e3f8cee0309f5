import { StoreError } from "@z/meta";
import { describe, expect, it } from "vitest";
import { HttpClient, TransientFailure, type Transport, type TransportResponse } from "../src/index.js";

// HttpClient with a transport of the test's own: what a store plugs in (headers per attempt, a
// screen of answers, its error when attempts run out). The stores' suites run it against servers.

function answer(status: number, text = ""): TransportResponse {
  const bytes = new TextEncoder().encode(text);
  return {
    status,
    statusText: status === 200 ? "OK" : "Service Unavailable",
    headers: { get: () => null },
    body: async () => bytes,
    discard: async () => undefined,
  };
}

/** A transport answering with `statuses` in turn, remembering each attempt's headers. */
function scripted(statuses: number[]): { transport: Transport; sent: Record<string, string>[] } {
  const sent: Record<string, string>[] = [];
  const transport: Transport = async (request) => {
    sent.push({ ...request.headers });
    return answer(statuses[sent.length - 1] ?? 200, "value");
  };
  return { transport, sent };
}

const options = (transport: Transport, retries = 2) => ({
  transport,
  concurrency: 2,
  retries,
  retryDelay: 0,
  maxRetryDelay: 0,
  timeout: 0,
});
const url = new URL("http://example.test/k");
const text = async (response: TransportResponse) => new TextDecoder().decode(await response.body());

describe("HttpClient", () => {
  it("tries a 503 again, asking the hook for each attempt's headers", async () => {
    const { transport, sent } = scripted([503, 200]);
    let attempt = 0;
    const client = new HttpClient(options(transport), {
      headers: () => ({ "x-attempt": String(++attempt) }),
      exhausted: () => new Error("not reached"),
    });
    expect(await client.send({ method: "GET", url }, text)).toBe("value");
    expect(sent).toEqual([{ "x-attempt": "1" }, { "x-attempt": "2" }]);
  });

  it("ends in the store's own error when attempts run out, with the last failure and the count", async () => {
    const { transport } = scripted([503, 503, 503]);
    const client = new HttpClient(options(transport), {
      headers: () => ({}),
      exhausted: (request, failure, tries) =>
        new RangeError(`${request.method} ${request.key}: ${failure.message} (${failure.status}), ${tries} tries`),
    });
    await expect(client.send({ method: "GET", url, key: "k" }, text)).rejects.toThrow(
      new RangeError("GET k: 503 Service Unavailable (503), 3 tries"),
    );
  });

  it("hands the handler what the screen gives on, and retries what it marks transient", async () => {
    const { transport, sent } = scripted([200, 200]);
    let screened = 0;
    const client = new HttpClient(options(transport), {
      headers: () => ({}),
      screen: async (response) => {
        if (++screened === 1) throw new TransientFailure("SlowDown", 400, undefined, { code: "SlowDown" });
        return { ...response, body: async () => new TextEncoder().encode("screened") };
      },
      exhausted: () => new Error("not reached"),
    });
    expect(await client.send({ method: "GET", url }, text)).toBe("screened");
    expect(sent).toHaveLength(2);
  });

  it("never retries a StoreError the handler throws (other errors there count as a connection lost while reading)", async () => {
    const { transport, sent } = scripted([200, 200]);
    const client = new HttpClient(options(transport), { headers: () => ({}), exhausted: () => new Error("no") });
    const refused = new StoreError("an HTML page, not a value", { key: "k" });
    await expect(
      client.send({ method: "GET", url }, async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(sent).toHaveLength(1);
  });
});
