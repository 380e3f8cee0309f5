import { StoreError, unsafeKeyReason } from "@z/meta";
import { type Environment, getDefaultEnvironment } from "./environment.js";
import { defaultTransportNow, type FetchFunction, fetchTransport, type Transport } from "./transport.js";

export type { FetchFunction };

/** An access key, as IAM gives it; `sessionToken` for temporary credentials (STS, SSO). */
export interface S3Credentials {
  /** The access key's id, e.g. `AKIA…` (`ASIA…` for temporary ones). */
  accessKeyId: string;
  /** Its secret, which signs requests and is never sent. */
  secretAccessKey: string;
  /** The session token of temporary credentials, sent as `x-amz-security-token`. */
  sessionToken?: string;
}

/** Where a store's values live and how to reach them. Only `bucket` is required. */
export interface S3StoreOptions {
  /** The bucket's name. */
  bucket: string;
  /**
   * The store's root inside the bucket, e.g. `"path/x.zarr"`: the store key `.zgroup` is the
   * object `path/x.zarr/.zgroup`. Leading and trailing `/` are ignored; default the bucket's root.
   */
  prefix?: string;
  /**
   * The region requests are signed for; default `AWS_REGION`, then `AWS_DEFAULT_REGION` (in
   * Node), then `"us-east-1"`. Services that ignore regions (MinIO, s3rver) accept any; R2 wants `"auto"`.
   */
  region?: string;
  /**
   * The service's URL, e.g. `"http://127.0.0.1:9000"` (MinIO), `"https://<account>.r2.cloudflarestorage.com"`,
   * `"https://storage.googleapis.com"` (GCS interoperability); it may have a path. Default
   * `AWS_ENDPOINT_URL_S3`, then `AWS_ENDPOINT_URL` (in Node), then AWS's `https://s3.<region>.amazonaws.com`.
   */
  endpoint?: string;
  /**
   * The key requests are signed with. Default (in Node) `AWS_ACCESS_KEY_ID`,
   * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; without those, requests are anonymous
   * (public buckets).
   */
  credentials?: S3Credentials;
  /** Send unsigned requests even if the environment has credentials (public buckets); default `false`. */
  anonymous?: boolean;
  /**
   * Address the bucket in the path (`<endpoint>/<bucket>/<key>`) instead of the host name
   * (`<bucket>.<endpoint host>/<key>`). Default `AWS_S3_FORCE_PATH_STYLE=true` (in Node), else
   * `false`. Path style is used anyway when the endpoint's host is an IP address or `localhost`,
   * and for bucket names that cannot be host names (dots over HTTPS, capitals, underscores).
   */
  forcePathStyle?: boolean;
  /** Allow `set` (PUT) and `delete` (DELETE); default `true` (the bucket's permissions still decide). */
  writable?: boolean;
  /**
   * Sign each request's body with its SHA-256 (`x-amz-content-sha256`), which S3 then checks:
   * costs a hash of every value written. Default `false`: `UNSIGNED-PAYLOAD`, which AWS and the
   * common S3 servers accept.
   */
  signPayload?: boolean;
  /**
   * Send `x-amz-request-payer: requester` with every request (signed with it), agreeing to pay for
   * requests to a Requester Pays bucket, which refuses others' requests without it; default `false`.
   */
  requesterPays?: boolean;
  /** The most requests in flight at once (waiting for a retry does not count); default 16. */
  concurrency?: number;
  /**
   * How many times a request is tried again after a 5xx, `SlowDown`, a 429, a dropped connection,
   * a truncated body or a timeout; default 5. Other errors (`AccessDenied`, `NoSuchBucket`, ...)
   * are never retried.
   */
  retries?: number;
  /** The first retry waits about this many milliseconds, each next one twice as long (with jitter); default 100. */
  retryDelay?: number;
  /** The longest wait between attempts, also for a server's Retry-After; default 20,000 ms. */
  maxRetryDelay?: number;
  /** Milliseconds an attempt may take, body included, before it is abandoned (and retried); default 60,000; 0 for none. */
  timeout?: number;
  /** Keys asked for per listing request (ListObjectsV2 `max-keys`, at most 1000); default 1000. */
  listPageSize?: number;
  /**
   * The `fetch` to send requests with. Default: in Node (the package's `node` export condition)
   * `@z/http-client`'s HTTP/1.1 client (`node:https` for `https:`) with keep-alive connections, which costs far less CPU than Node's
   * `fetch` on large values; elsewhere `globalThis.fetch`, looked up at each request.
   */
  fetch?: FetchFunction;
  /**
   * Where `AWS_*` defaults are read from: default the process's environment in Node, none in
   * browsers. Pass `{}` to ignore the environment.
   */
  environment?: Environment;
}

export interface ResolvedS3Options {
  bucket: string;
  /** `""` or a prefix ending in `/`. */
  prefix: string;
  region: string;
  endpoint: URL;
  credentials: S3Credentials | undefined;
  pathStyle: boolean;
  writable: boolean;
  signPayload: boolean;
  requesterPays: boolean;
  concurrency: number;
  retries: number;
  retryDelay: number;
  maxRetryDelay: number;
  timeout: number;
  listPageSize: number;
  /** What sends the requests: the options' `fetch`, else the default transport when the store was made. */
  transport: Transport;
}

export function resolveS3Options(options: S3StoreOptions): ResolvedS3Options {
  if (typeof options !== "object" || options === null) throw new StoreError("S3Store needs options with a bucket");
  const env = options.environment ?? getDefaultEnvironment();
  const fromEnv = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };
  const bucket = checkBucket(options.bucket);
  const region = options.region ?? fromEnv("AWS_REGION") ?? fromEnv("AWS_DEFAULT_REGION") ?? "us-east-1";
  if (typeof region !== "string" || !/^[a-z0-9-]+$/.test(region))
    throw new StoreError(`invalid S3 region ${JSON.stringify(region)}: expected letters, digits and dashes`);
  const endpointText =
    options.endpoint ??
    fromEnv("AWS_ENDPOINT_URL_S3") ??
    fromEnv("AWS_ENDPOINT_URL") ??
    `https://s3.${region}.amazonaws.com`;
  const endpoint = parseEndpoint(endpointText);
  const forcePathStyle = options.forcePathStyle ?? fromEnv("AWS_S3_FORCE_PATH_STYLE")?.trim().toLowerCase() === "true";
  return {
    bucket,
    prefix: normalizePrefix(options.prefix),
    region,
    endpoint,
    credentials: resolveCredentials(options, fromEnv),
    pathStyle: forcePathStyle || needsPathStyle(endpoint, bucket),
    writable: options.writable ?? true,
    signPayload: options.signPayload ?? false,
    requesterPays: options.requesterPays ?? false,
    concurrency: number("concurrency", options.concurrency, 16, { integer: true, min: 1 }),
    retries: number("retries", options.retries, 5, { integer: true }),
    retryDelay: number("retryDelay", options.retryDelay, 100),
    maxRetryDelay: number("maxRetryDelay", options.maxRetryDelay, 20_000),
    timeout: number("timeout", options.timeout, 60_000),
    listPageSize: number("listPageSize", options.listPageSize, 1000, { integer: true, min: 1, max: 1000 }),
    transport: options.fetch === undefined ? defaultTransportNow() : fetchTransport(options.fetch),
  };
}

function resolveCredentials(
  options: S3StoreOptions,
  fromEnv: (name: string) => string | undefined,
): S3Credentials | undefined {
  if (options.credentials !== undefined) {
    if (options.anonymous === true)
      throw new StoreError("S3Store options: pass credentials or anonymous: true, not both");
    const { accessKeyId, secretAccessKey, sessionToken } = options.credentials;
    if (typeof accessKeyId !== "string" || accessKeyId === "" || typeof secretAccessKey !== "string")
      throw new StoreError("S3Store options: credentials need an accessKeyId and a secretAccessKey (strings)");
    if (sessionToken !== undefined && typeof sessionToken !== "string")
      throw new StoreError("S3Store options: credentials.sessionToken must be a string");
    return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
  }
  if (options.anonymous === true) return undefined;
  const accessKeyId = fromEnv("AWS_ACCESS_KEY_ID");
  const secretAccessKey = fromEnv("AWS_SECRET_ACCESS_KEY");
  if (accessKeyId === undefined && secretAccessKey === undefined) return undefined;
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new StoreError(
      `the environment has ${accessKeyId === undefined ? "AWS_SECRET_ACCESS_KEY but no AWS_ACCESS_KEY_ID" : "AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY"}: set both, or pass credentials (or anonymous: true) to S3Store`,
    );
  }
  const sessionToken = fromEnv("AWS_SESSION_TOKEN");
  return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
}

/** S3's rules for new buckets are stricter; this refuses only what cannot name a bucket in a URL. */
function checkBucket(bucket: unknown): string {
  if (typeof bucket !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/.test(bucket)) {
    throw new StoreError(
      `invalid S3 bucket name ${JSON.stringify(bucket)}: expected letters, digits, '.', '-' and '_', starting with a letter or digit`,
    );
  }
  return bucket;
}

function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined) return "";
  if (typeof prefix !== "string") throw new StoreError(`invalid S3 prefix ${String(prefix)}: expected a string`);
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  const reason = unsafeKeyReason(trimmed);
  if (reason !== undefined) throw new StoreError(`invalid S3 prefix ${JSON.stringify(prefix)}: ${reason}`);
  return `${trimmed}/`;
}

function parseEndpoint(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreError(`invalid S3 endpoint ${JSON.stringify(text)}: not a URL`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "")
    throw new StoreError(
      `invalid S3 endpoint ${JSON.stringify(text)}: expected an http(s) URL without query or fragment`,
    );
  if (url.username !== "" || url.password !== "")
    throw new StoreError("invalid S3 endpoint: credentials belong in the credentials option, not in the URL");
  url.pathname = url.pathname.replace(/\/+$/, "");
  return url;
}

/** Whether `host` is an IPv4 or IPv6 address (URL keeps the brackets of an IPv6 host). */
function isIpAddress(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
}

/**
 * An IP address or `localhost` has no sub-domains for buckets; a bucket name that is not a valid
 * host label (capitals, `_`), or has dots under HTTPS (no certificate covers `a.b.s3.amazonaws.com`),
 * cannot be addressed by host either. AWS's SDKs decide the same way.
 */
function needsPathStyle(endpoint: URL, bucket: string): boolean {
  const host = endpoint.hostname;
  if (isIpAddress(host) || host === "localhost" || host.endsWith(".localhost")) return true;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) return true;
  return bucket.includes(".") && endpoint.protocol === "https:";
}

function number(
  name: string,
  value: number | undefined,
  fallback: number,
  { integer = false, min = 0, max = Number.POSITIVE_INFINITY } = {},
): number {
  const resolved = value ?? fallback;
  if (
    typeof resolved !== "number" ||
    Number.isNaN(resolved) ||
    resolved < min ||
    resolved > max ||
    (integer && !Number.isInteger(resolved))
  ) {
    throw new StoreError(
      `invalid S3Store option ${name}: expected ${integer ? "an integer" : "a number"} from ${min}${Number.isFinite(max) ? ` to ${max}` : " up"}, got ${String(value)}`,
    );
  }
  return resolved;
}
