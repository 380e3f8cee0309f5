// Two @z/store-http transports (src/transport.ts) over undici 7, to measure against ours
// (@z/http-client/node, http-client/src/node/) and fetch on the H1 case: `request()` (undici's documented fast API, a
// Pool per origin under its Agent) and `dispatch()` with a handler copying each body straight
// into one buffer of its Content-Length (the least undici can do per response). Enough of a
// transport for GETs of a benchmark: no redirects, no Content-Encoding.
import { Agent, request } from "undici";

const agent = new Agent();

/** Reads an undici body stream into one buffer of its Content-Length when it has one. */
async function readStream(body, length) {
  if (length === undefined) return new Uint8Array(await body.arrayBuffer());
  const out = new Uint8Array(length);
  let at = 0;
  for await (const piece of body) {
    if (piece.length > length - at) throw new Error(`longer than its Content-Length ${length}`);
    out.set(piece, at);
    at += piece.length;
  }
  if (at !== length) throw new Error(`${at} bytes, Content-Length ${length}`);
  return out;
}

const contentLength = (headers) => {
  const value = headers["content-length"];
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined;
};

const headerGetter = (headers) => ({
  get: (name) => {
    const value = headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  },
});

/** `undici.request()`. */
export const undiciRequestTransport = async ({ method, url, headers, body, signal }) => {
  const response = await request(url, { method, headers, body, signal, dispatcher: agent });
  return {
    status: response.statusCode,
    statusText: "",
    headers: headerGetter(response.headers),
    body: () => readStream(response.body, contentLength(response.headers)),
    discard: async () => {
      await response.body.dump().catch(() => undefined);
    },
  };
};

/** `Agent.dispatch()` with a handler that writes each body into one buffer. */
export const undiciDispatchTransport = ({ method, url, headers, body, signal }) =>
  new Promise((resolve, reject) => {
    let out;
    let at = 0;
    let controller;
    let bodyResolve;
    let bodyReject;
    const bodyPromise = new Promise((ok, fail) => {
      bodyResolve = ok;
      bodyReject = fail;
    });
    bodyPromise.catch(() => undefined);
    let responded = false;
    const onAbort = () => controller?.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => signal.removeEventListener("abort", onAbort);
    agent.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method, headers, body },
      {
        onRequestStart(c) {
          controller = c;
          if (signal.aborted) c.abort(signal.reason);
        },
        onResponseStart(_c, statusCode, responseHeaders, statusMessage) {
          responded = true;
          const length = contentLength(responseHeaders);
          out = length === undefined ? undefined : new Uint8Array(length);
          if (out === undefined) out = { pieces: [] };
          resolve({
            status: statusCode,
            statusText: statusMessage ?? "",
            headers: headerGetter(responseHeaders),
            body: () => bodyPromise,
            discard: async () => controller.abort(new Error("discarded")),
          });
        },
        onResponseData(_c, chunk) {
          if (out instanceof Uint8Array) {
            if (chunk.length > out.length - at) throw new Error("longer than its Content-Length");
            out.set(chunk, at);
          } else out.pieces.push(chunk);
          at += chunk.length;
        },
        onResponseEnd() {
          done();
          if (out instanceof Uint8Array) {
            if (at !== out.length) bodyReject(new Error(`${at} bytes, Content-Length ${out.length}`));
            else bodyResolve(out);
          } else bodyResolve(new Uint8Array(Buffer.concat(out.pieces)));
        },
        onResponseError(_c, err) {
          done();
          if (responded) bodyReject(err);
          else reject(err);
        },
      },
    );
  });
