import {
  type ByteRange,
  checkByteRange,
  checkKey,
  type DirectoryListing,
  StoreError,
  type StoreOptions,
  unsafeKeyReason,
  type WritableStore,
} from "@z/meta";
import { describeStatus, readError, S3Client, type S3Request } from "./client.js";
import { S3StoreError, TransientFailure } from "./errors.js";
import { type ResolvedS3Options, resolveS3Options, type S3StoreOptions } from "./options.js";
import type { S3Response } from "./transport.js";
import { parseListPage } from "./xml.js";

/**
 * A Zarr store in an S3 bucket (AWS S3, MinIO, Cloudflare R2, Ceph, Google Cloud Storage's
 * interoperability mode, ...), like zarr-python's `FSStore` over s3fs: the store key `foo/0.0`
 * is the object `<prefix>/foo/0.0`. Works wherever `fetch` and `crypto.subtle` do (browsers,
 * Node 20+, Deno, workers); a browser needs the bucket's CORS rules to allow its origin.
 *
 * - `get`: one GET; a missing key (`404 NoSuchKey`) gives `undefined`.
 * - `getRange`: one ranged GET (`Range: bytes=a-b`, `bytes=a-` or `bytes=-n`); the answer's
 *   Content-Range is checked against the request, so a server answering another range never
 *   passes its bytes off as the ones asked for (see the README for servers that answer suffix
 *   ranges wrongly: the store then asks again for the explicit range).
 * - `set`: one PUT (S3 replaces an object whole and atomically: readers see the old or the new
 *   value, never a mix); `delete`: one DELETE; `rmdir(path)`: a listing, then DELETEs in parallel.
 * - `list`/`listDir`: ListObjectsV2 (with `delimiter=/` for `listDir`), following continuation
 *   tokens, so groups, `tree`, `copy` and `consolidate` work without `.zmetadata`. Objects whose
 *   names end in `/` (folder markers some consoles create) are not keys.
 * - `has`: one HEAD.
 * - Requests are signed with SigV4 (aws4fetch) when there are credentials, anonymous otherwise;
 *   at most `concurrency` are in flight; 5xx, 429, `SlowDown`, dropped connections, truncated
 *   bodies and time-outs are retried with exponential backoff and jitter.
 *
 * Every failure is an {@link S3StoreError} (a `StoreError`, `code` `"ZARR_STORE"`) naming the
 * bucket, the key and the S3 error code (`NoSuchBucket`, `AccessDenied`, `InvalidAccessKeyId`,
 * `SignatureDoesNotMatch`, ...). A bucket that does not exist is an error, never an empty store.
 * S3 answers `403 AccessDenied` instead of `404` for a missing key when the credentials may not
 * list the bucket: that is an error too (the store cannot tell it from a real denial). An aborted
 * call rejects with its signal's reason.
 */
export class S3Store implements WritableStore {
  /** The bucket. */
  readonly bucket: string;
  /** The store's root in the bucket: `""` or a prefix ending in `/`. */
  readonly prefix: string;
  /** The region requests are signed for. */
  readonly region: string;
  /** The service's URL. */
  readonly endpoint: URL;
  /** Whether the bucket is addressed in the path (`<endpoint>/<bucket>/<key>`) rather than the host name. */
  readonly pathStyle: boolean;
  /** Whether `set`/`delete` send PUT/DELETE ({@link S3StoreOptions.writable}). */
  readonly writable: boolean;
  /** Whether requests are signed (the store has credentials). */
  readonly signed: boolean;
  /** Every value read is a response body of its own (see `Store.freshValues`). */
  readonly freshValues = true;
  readonly #options: ResolvedS3Options;
  readonly #client: S3Client;
  /** The bucket answered once (a value, or `NoSuchKey`): a bare 404 to a HEAD then means a missing key. */
  #bucketSeen = false;

  constructor(options: S3StoreOptions) {
    this.#options = resolveS3Options(options);
    this.bucket = this.#options.bucket;
    this.prefix = this.#options.prefix;
    this.region = this.#options.region;
    this.endpoint = this.#options.endpoint;
    this.pathStyle = this.#options.pathStyle;
    this.writable = this.#options.writable;
    this.signed = this.#options.credentials !== undefined;
    this.#client = new S3Client(this.#options);
  }

  /** `s3://bucket/prefix/`, for messages. */
  get url(): string {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  /** The object key (in the bucket) of the store key `key`. Throws a `StoreError` for keys that are not canonical. */
  objectKey(key: string): string {
    checkKey(key);
    return this.prefix + key;
  }

  /** The URL of the object `objectKey`, or of the bucket itself when omitted. */
  objectUrl(objectKey?: string): URL {
    const url = new URL(this.endpoint.href);
    const base = url.pathname.replace(/\/+$/, "");
    const path = objectKey === undefined ? "" : `/${encodeObjectKey(objectKey)}`;
    if (this.pathStyle) {
      url.pathname = `${base}/${this.bucket}${path}`;
    } else {
      url.hostname = `${this.bucket}.${url.hostname}`;
      url.pathname = `${base}${path === "" ? "/" : path}`;
    }
    return url;
  }

  /** GETs the object: its bytes, or `undefined` when the key is missing. */
  async get(key: string, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const request = this.#request("GET", key, options);
    return this.#client.send(request, async (response) => {
      if (response.status === 404) return this.#missing(response, request);
      if (response.status !== 200) throw await this.#failure(response, request);
      this.#bucketSeen = true;
      return response.body();
    });
  }

  /**
   * Part of the value with one ranged GET, clamped like `Uint8Array.prototype.slice`;
   * `undefined` for a missing key. Zero-length ranges are answered with a HEAD (HTTP has no
   * empty byte range).
   */
  async getRange(key: string, range: ByteRange, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const wanted = checkRange(key, range);
    if (wanted.length === 0) return (await this.has(key, options)) ? new Uint8Array(0) : undefined;
    if (wanted.suffix === undefined && wanted.offset === 0 && wanted.length === undefined)
      return this.get(key, options);
    const result = await this.#getRange(key, wanted, options);
    if ("bytes" in result) return result.bytes;
    // The server answered a suffix range with another part of the value (s3rver does): its
    // Content-Range said the size, so ask again for the same bytes by their offsets.
    const again = await this.#getRange(key, result.again, options);
    if (!("bytes" in again)) throw new StoreError(`S3 ${this.url}: a range by offsets was answered as a suffix`);
    return again.bytes;
  }

  async #getRange(
    key: string,
    wanted: WantedRange,
    options: StoreOptions,
  ): Promise<{ bytes: Uint8Array | undefined } | { again: WantedRange }> {
    const header = rangeHeader(wanted);
    const request = this.#request("GET", key, options, { range: header });
    return this.#client.send(request, async (response) => {
      if (response.status === 404) return { bytes: await this.#missing(response, request) };
      // InvalidRange: the value exists, the range starts at or past its end.
      if (response.status === 416) {
        this.#bucketSeen = true;
        await response.discard();
        return { bytes: new Uint8Array(0) };
      }
      if (response.status === 200) {
        // A server that ignores Range: the whole value, cut here.
        this.#bucketSeen = true;
        return { bytes: sliceWanted(await response.body(), wanted) };
      }
      if (response.status !== 206) throw await this.#failure(response, request);
      this.#bucketSeen = true;
      const contentRange = response.headers.get("content-range");
      const served = parseContentRange(contentRange);
      if (served === undefined) {
        await response.discard();
        throw this.#error(request, response, `answered Range: ${header} with Content-Range ${String(contentRange)}`);
      }
      // An empty value has no bytes to serve (s3rver answers `bytes 0-0/0` with no body).
      if (served.size === 0) {
        await response.discard();
        return { bytes: new Uint8Array(0) };
      }
      const [start, end] = absoluteRange(wanted, served.size);
      if (start >= end) {
        await response.discard();
        return { bytes: new Uint8Array(0) };
      }
      if (served.start <= start && served.end + 1 >= end) {
        // The bytes asked for, or more of them (s3rver answers `bytes=0-0` with the whole value).
        const body = await response.body();
        if (body.length !== served.end + 1 - served.start)
          throw new TransientFailure(`a body of ${body.length} bytes for Content-Range ${contentRange}`, 206);
        return { bytes: body.slice(start - served.start, end - served.start) };
      }
      await response.discard();
      if (wanted.suffix !== undefined && served.size !== undefined)
        return { again: { offset: start, length: end - start, suffix: undefined } };
      throw this.#error(request, response, `answered Range: ${header} with Content-Range ${contentRange}`);
    });
  }

  /** Whether the key has a value (one HEAD). */
  async has(key: string, options: StoreOptions = {}): Promise<boolean> {
    const request = this.#request("HEAD", key, options);
    const found = await this.#client.send(request, async (response) => {
      await response.discard();
      if (response.status === 200) {
        this.#bucketSeen = true;
        return true;
      }
      if (response.status === 404) return false;
      throw await this.#failure(response, request);
    });
    // A HEAD's 404 has no body to say whether the key or the bucket is missing: the first time,
    // a GET says (and then the answer is known for the store's life).
    if (!found && !this.#bucketSeen) return (await this.get(key, options)) !== undefined;
    return found;
  }

  /** PUTs `value` as the object; S3 replaces it whole. */
  async set(key: string, value: Uint8Array, options: StoreOptions = {}): Promise<void> {
    this.#checkWritable(key);
    // Copied now: the caller may change its buffer while the request (or a retry) is under way.
    const body = value.slice();
    const request = this.#request("PUT", key, options, { "content-type": "application/octet-stream" }, body);
    await this.#client.send(request, async (response) => {
      if (response.status !== 200 && response.status !== 201 && response.status !== 204)
        throw await this.#failure(response, request);
      this.#bucketSeen = true;
      await response.discard();
    });
  }

  /** DELETEs the object; a missing key is fine (S3 answers 204 either way), a missing bucket is not. */
  async delete(key: string, options: StoreOptions = {}): Promise<void> {
    this.#checkWritable(key);
    const request = this.#request("DELETE", key, options);
    await this.#client.send(request, async (response) => {
      if (response.status === 404) {
        await this.#missing(response, request);
        return;
      }
      if (response.status !== 200 && response.status !== 204) throw await this.#failure(response, request);
      this.#bucketSeen = true;
      await response.discard();
    });
  }

  /** Removes every key under `path` (the whole store for `""`): one listing, then DELETEs, `concurrency` at a time. */
  async rmdir(path = "", options: StoreOptions = {}): Promise<void> {
    const prefix = path === "" ? "" : `${path.replace(/\/+$/, "")}/`;
    const keys = await this.list(prefix, options);
    // The client bounds how many are in flight.
    await Promise.all(keys.map((key) => this.delete(key, options)));
  }

  /** Every key starting with `prefix` (all when omitted): ListObjectsV2, page after page. */
  async list(prefix = "", options: StoreOptions = {}): Promise<string[]> {
    checkListPrefix(prefix);
    const { keys } = await this.#listObjects(this.prefix + prefix, undefined, options);
    const keep = this.prefix.length;
    return keys.filter((key) => !key.endsWith("/")).map((key) => key.slice(keep));
  }

  /**
   * The keys (`keys`) and sub-directories (`prefixes`) directly under `prefix` (`""` for the
   * root, else ending in `/`), sorted: ListObjectsV2 with `delimiter=/`.
   */
  async listDir(prefix: string, options: StoreOptions = {}): Promise<DirectoryListing> {
    checkDirPrefix(prefix);
    const full = this.prefix + prefix;
    const page = await this.#listObjects(full, "/", options);
    const keys = page.keys.map((key) => key.slice(full.length)).filter((name) => name !== "" && !name.includes("/"));
    const prefixes = page.prefixes
      .map((name) => name.slice(full.length).replace(/\/$/, ""))
      .filter((name) => name !== "" && !name.includes("/"));
    return { keys: [...new Set(keys)].sort(), prefixes: [...new Set(prefixes)].sort() };
  }

  async #listObjects(
    prefix: string,
    delimiter: string | undefined,
    options: StoreOptions,
  ): Promise<{ keys: string[]; prefixes: string[] }> {
    const keys: string[] = [];
    const prefixes: string[] = [];
    const tokens = new Set<string>();
    let token: string | undefined;
    for (;;) {
      const url = this.objectUrl();
      url.searchParams.set("list-type", "2");
      url.searchParams.set("max-keys", String(this.#options.listPageSize));
      if (prefix !== "") url.searchParams.set("prefix", prefix);
      if (delimiter !== undefined) url.searchParams.set("delimiter", delimiter);
      if (token !== undefined) url.searchParams.set("continuation-token", token);
      const request: S3Request = { method: "GET", url, signal: options.signal };
      const page = await this.#client.send(request, async (response) => {
        if (response.status !== 200) throw await this.#failure(response, request);
        const text = new TextDecoder().decode(await response.body());
        const parsed = parseListPage(text);
        if (parsed === undefined)
          throw this.#error(request, response, `answered a listing with something else: ${clip(text)}`);
        return parsed;
      });
      this.#bucketSeen = true;
      keys.push(...page.keys);
      prefixes.push(...page.prefixes);
      if (!page.truncated) return { keys, prefixes };
      if (page.nextToken === undefined || page.nextToken === "" || tokens.has(page.nextToken))
        throw new S3StoreError(
          `S3 listing of s3://${this.bucket}/${prefix} is truncated but gives no new continuation token`,
          { bucket: this.bucket, method: "GET", url: url.href, status: 200 },
        );
      tokens.add(page.nextToken);
      token = page.nextToken;
    }
  }

  #request(
    method: S3Request["method"],
    key: string,
    options: StoreOptions,
    headers?: Record<string, string>,
    body?: Uint8Array,
  ): S3Request {
    const objectKey = this.objectKey(key);
    return { method, url: this.objectUrl(objectKey), key, objectKey, headers, body, signal: options.signal };
  }

  /** A 404: `undefined` for a missing key, an error for a missing bucket. */
  async #missing(response: S3Response, request: S3Request): Promise<undefined> {
    const { code, message } = await readError(response);
    if (code === "NoSuchBucket" || (code !== undefined && code !== "NoSuchKey")) {
      throw this.#error(request, response, describeStatus(response, code, message), code);
    }
    if (code === "NoSuchKey") this.#bucketSeen = true;
    return undefined;
  }

  async #failure(response: S3Response, request: S3Request): Promise<S3StoreError> {
    const { code, message } = await readError(response);
    let detail = describeStatus(response, code, message);
    if (response.status === 0 || (response.status >= 300 && response.status < 400)) {
      const region = response.headers.get("x-amz-bucket-region");
      detail += region === null ? ": a redirect" : `: the bucket is in region ${region} (pass { region: "${region}" })`;
    }
    return this.#error(request, response, detail, code);
  }

  #error(request: S3Request, response: S3Response, detail: string, s3Code?: string): S3StoreError {
    const where = request.objectKey === undefined ? `s3://${this.bucket}/` : `s3://${this.bucket}/${request.objectKey}`;
    const what = request.key === undefined ? "" : ` (key ${JSON.stringify(request.key)})`;
    return new S3StoreError(`S3 ${request.method} ${where}${what} failed: ${detail}`, {
      bucket: this.bucket,
      key: request.key,
      objectKey: request.objectKey,
      method: request.method,
      url: request.url.href,
      status: response.status,
      s3Code,
      requestId: response.headers.get("x-amz-request-id") ?? undefined,
    });
  }

  #checkWritable(key: string): void {
    if (!this.writable)
      throw new StoreError(
        `cannot write ${JSON.stringify(key)}: the S3Store for ${this.url} is read-only (pass { writable: true } to PUT and DELETE)`,
        { key },
      );
  }
}

/** A checked range: `suffix` bytes from the end, or `length` (to the end when `undefined`) from `offset`. */
interface WantedRange {
  offset: number;
  length: number | undefined;
  suffix: number | undefined;
}

function checkRange(key: string, range: ByteRange): WantedRange {
  checkByteRange(key, range);
  if ("suffixLength" in range)
    return { offset: 0, length: range.suffixLength === 0 ? 0 : undefined, suffix: range.suffixLength };
  return { offset: range.offset, length: range.length, suffix: undefined };
}

function rangeHeader(wanted: WantedRange): string {
  if (wanted.suffix !== undefined) return `bytes=-${wanted.suffix}`;
  if (wanted.length === undefined) return `bytes=${wanted.offset}-`;
  return `bytes=${wanted.offset}-${wanted.offset + wanted.length - 1}`;
}

/** `[start, end)` of the wanted bytes in a value of `size` bytes. */
function absoluteRange(wanted: WantedRange, size: number | undefined): [number, number] {
  if (size === undefined) {
    // An unknown size (`Content-Range: bytes a-b/*`): only offsets can be placed.
    const start = wanted.offset;
    return [start, wanted.length === undefined ? Number.MAX_SAFE_INTEGER : start + wanted.length];
  }
  if (wanted.suffix !== undefined) return [Math.max(0, size - wanted.suffix), size];
  const start = Math.min(wanted.offset, size);
  return [start, wanted.length === undefined ? size : Math.min(size, start + wanted.length)];
}

function sliceWanted(value: Uint8Array, wanted: WantedRange): Uint8Array {
  const [start, end] = absoluteRange(wanted, value.length);
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** `bytes a-b/size` (size `undefined` for `*`). */
function parseContentRange(
  header: string | null,
): { start: number; end: number; size: number | undefined } | undefined {
  const match = header === null ? null : /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header);
  if (match === null) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  const size = match[3] === "*" ? undefined : Number(match[3]);
  if (end < start) return undefined;
  return { start, end, size };
}

/** An object key in a URL path: each segment percent-encoded as S3 canonicalizes it (RFC 3986 unreserved kept). */
export function encodeObjectKey(objectKey: string): string {
  return objectKey
    .split("/")
    .map((segment) =>
      encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join("/");
}

/** `list` prefixes match keys as plain strings; the directories they lie in must be canonical. */
function checkListPrefix(prefix: string): void {
  if (typeof prefix !== "string") throw new StoreError(`invalid list prefix ${String(prefix)}: expected a string`);
  const slash = prefix.lastIndexOf("/");
  if (slash < 0) {
    if (prefix.includes("\\") || prefix.includes("\0")) throw refused(prefix, "it contains a backslash or NUL");
    return;
  }
  const reason = unsafeKeyReason(prefix.slice(0, slash));
  if (reason !== undefined) throw refused(prefix, reason);
  const rest = prefix.slice(slash + 1);
  if (rest.includes("\\") || rest.includes("\0")) throw refused(prefix, "it contains a backslash or NUL");
}

function checkDirPrefix(prefix: string): void {
  if (prefix === "") return;
  if (typeof prefix !== "string" || !prefix.endsWith("/"))
    throw new StoreError(`invalid listDir prefix ${JSON.stringify(prefix)}: expected "" or a prefix ending in /`);
  const reason = unsafeKeyReason(prefix.slice(0, -1));
  if (reason !== undefined) throw refused(prefix, reason);
}

const refused = (prefix: string, reason: string): StoreError =>
  new StoreError(`refusing prefix ${JSON.stringify(prefix)}: ${reason}`, { key: prefix });

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
