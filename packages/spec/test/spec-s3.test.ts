/**
 * `s3` kvstores in specs as TensorStore 0.1.85 reads them: for each spec and `s3://` URL of
 * fixtures/tensorstore-spec/kvstore.json (made by python/tensorstore_spec_fixtures.py with
 * TensorStore itself), z parses what TensorStore parsed into the same members, refuses what it
 * refused with a `SpecError` saying what TensorStore said, and at open refuses what TensorStore's
 * open refused; what TensorStore does that z does not is refused with a `SpecUnsupportedError`.
 * What the `openS3` opener is given for a spec is checked here too (no request is sent).
 */
import { readFileSync } from "node:fs";
import { registerStoreDriver, type JsonValue, type Store } from "@z/meta";
import { s3StoreDriver, type SpecS3Options } from "@z/store-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpecContext } from "../src/context.js";
import { SpecError, SpecUnsupportedError } from "../src/errors.js";
import { prepareKvStores } from "../src/kvstore.js";
import { openSpecStore } from "../src/open.js";
import { kvstoreJson, parseSpec } from "../src/parse.js";

interface KvStoreCase {
  kvstore: JsonValue;
  resolved?: Record<string, JsonValue>;
  error?: string;
  open_error?: string;
}

const cases = JSON.parse(
  readFileSync(new URL("./fixtures/tensorstore-spec/kvstore.json", import.meta.url), "utf8"),
) as KvStoreCase[];
const indexed = cases.map((c, i) => ({ ...c, i }));

/** An `openS3` that records what it is asked to open. */
function recorder(): { openS3(url: string, options?: SpecS3Options): Store; calls: [string, SpecS3Options?][] } {
  const calls: [string, SpecS3Options?][] = [];
  return {
    calls,
    openS3: (url, options) => {
      calls.push([url, options]);
      return { get: async () => undefined };
    },
  };
}

/**
 * What TensorStore opens and z refuses on purpose (each with its reason in kvstore-s3.ts); also
 * paths starting with "/" (object keys beginning with "/").
 */
function refusedByDesign(kv: JsonValue): boolean {
  if (typeof kv !== "object" || kv === null || Array.isArray(kv)) return false;
  const k = kv as Record<string, JsonValue>;
  const credentials = k.aws_credentials as Record<string, JsonValue> | undefined;
  const type = typeof credentials === "object" && credentials !== null ? credentials.type : undefined;
  return (
    (typeof k.host_header === "string" && k.host_header !== "") ||
    k.use_conditional_write === true ||
    k.bucket === "" ||
    ["imds", "ecs", "profile"].includes(type as string) ||
    (type === "default" && credentials?.profile !== undefined)
  );
}

/** TensorStore's members of a resolved s3 kvstore, its defaults filled in. */
const members = (j: Record<string, JsonValue>): Record<string, JsonValue | undefined> => ({
  bucket: j.bucket ?? "",
  path: j.path ?? "",
  endpoint: j.endpoint,
  host_header: j.host_header,
  aws_region: j.aws_region ?? "",
  requester_pays: j.requester_pays ?? false,
  use_conditional_write: j.use_conditional_write,
  aws_credentials: typeof j.aws_credentials === "object" ? j.aws_credentials : undefined,
});

const spec = (kvstore: JsonValue): JsonValue => ({ driver: "zarr2", kvstore });

/** A SpecError's own words, without the member it names first. */
const said = (error: SpecError): string =>
  error.member === undefined
    ? error.message
    : error.message.slice(`spec member ${JSON.stringify(error.member)}: `.length);

// The s3 kvstore is @z/store-s3's kvstore spec hook: registered as a browser build registers it, and
// loaded before parseSpec reads specs (openSpecStore loads it itself).
let unregister = (): void => {};
beforeAll(async () => {
  unregister = registerStoreDriver(s3StoreDriver);
  await prepareKvStores("s3://bucket");
});
afterAll(() => unregister());

describe("s3 kvstores as TensorStore 0.1.85 reads them", () => {
  it("has specs and URLs TensorStore took and refused", () => {
    expect(cases.length).toBeGreaterThan(100);
    expect(cases.filter((c) => c.error === undefined).length).toBeGreaterThan(40);
    expect(cases.filter((c) => c.error !== undefined).length).toBeGreaterThan(40);
  });

  const parsed = indexed.filter((c) => c.error === undefined);
  it.each(parsed)("#$i $kvstore: parsed into TensorStore's members", async ({ kvstore, resolved, open_error }) => {
    if (typeof kvstore === "object" && kvstore !== null && "context" in kvstore) {
      // A context inside a kvstore spec is refused when the spec is read (see kvstore.ts).
      expect(() => parseSpec(spec(kvstore))).toThrow(SpecUnsupportedError);
      return;
    }
    const kv = parseSpec(spec(kvstore)).kvstore;
    expect(members(kvstoreJson(kv) as Record<string, JsonValue>)).toEqual(members(resolved!));
    const opener = recorder();
    const opening = openSpecStore(spec(kvstore), { ...opener });
    if (refusedByDesign(kvstore) || kv.path.startsWith("/")) {
      await expect(opening).rejects.toBeInstanceOf(SpecUnsupportedError);
    } else if (open_error !== undefined) {
      const error = await opening.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `TensorStore: ${open_error}`).toBeInstanceOf(SpecError);
      expect(open_error).toContain(said(error as SpecError));
    } else {
      await opening;
      expect(opener.calls).toHaveLength(1);
    }
    if (open_error !== undefined || refusedByDesign(kvstore) || kv.path.startsWith("/"))
      expect(opener.calls).toEqual([]);
  });

  // z's words for a bad percent-encoding leave out TensorStore's "at position -1".
  const worded = new Map([["Invalid percent-encoding in", "Invalid percent-encoding at position"]]);
  const refused = indexed.filter((c) => c.error !== undefined);
  it.each(refused)("#$i $kvstore: refused as TensorStore refuses it", ({ kvstore, error }) => {
    let thrown: unknown;
    try {
      parseSpec(spec(kvstore));
    } catch (e) {
      thrown = e;
    }
    expect(thrown, `TensorStore: ${error}`).toBeInstanceOf(SpecError);
    let message = said(thrown as SpecError);
    for (const [ours, theirs] of worded) message = message.replace(ours, theirs).replace(/ ("[^"]*")$/, "");
    expect(error).toContain(message);
  });
});

describe("what the openS3 opener is given", () => {
  async function opened(kvstore: JsonValue, context?: SpecContext): Promise<[string, SpecS3Options?]> {
    const opener = recorder();
    await openSpecStore({ driver: "zarr2", kvstore, path: "arr" }, { ...opener, context });
    return opener.calls[0]!;
  }

  it("the bucket and the path (percent-encoded) as an s3:// URL; nothing else unless the spec says", async () => {
    expect(await opened("s3://my-bucket/a%20b/x.zarr")).toEqual(["s3://my-bucket/a%20b/x.zarr/arr", {}]);
    expect(await opened({ driver: "s3", bucket: "b.c.d" })).toEqual(["s3://b.c.d/arr", {}]);
  });

  it("an endpoint, addressed in the path as TensorStore does (<endpoint>/<bucket>), and the region", async () => {
    expect(
      await opened({ driver: "s3", bucket: "bkt", endpoint: "http://127.0.0.1:9000", aws_region: "eu-west-1" }),
    ).toEqual(["s3://bkt/arr", { endpoint: "http://127.0.0.1:9000", forcePathStyle: true, region: "eu-west-1" }]);
    // An empty endpoint is no endpoint; an old-style bucket name is in us-east-1.
    expect(await opened({ driver: "s3", bucket: "Old_Bucket", endpoint: "" })).toEqual([
      "s3://Old_Bucket/arr",
      { region: "us-east-1" },
    ]);
  });

  it("anonymous credentials, requester_pays, and the request concurrency and retries", async () => {
    expect(
      await opened({
        driver: "s3",
        bucket: "bkt",
        requester_pays: true,
        aws_credentials: { type: "anonymous" },
        s3_request_concurrency: { limit: 3 },
        s3_request_retries: { max_retries: 4, initial_delay: "250ms", max_delay: "1m30s" },
      }),
    ).toEqual([
      "s3://bkt/arr",
      { anonymous: true, requesterPays: true, concurrency: 3, retries: 4, retryDelay: 250, maxRetryDelay: 90_000 },
    ]);
    // "environment" and "default": the opener's credentials (in Node, AWS_* of the environment).
    for (const type of ["environment", "default"])
      expect(await opened({ driver: "s3", bucket: "bkt", aws_credentials: { type } })).toEqual(["s3://bkt/arr", {}]);
  });

  it("resources from the context, by name or by default, checked when used", async () => {
    const context = new SpecContext({
      aws_credentials: { type: "anonymous" },
      "s3_request_concurrency#few": { limit: 2 },
      s3_request_retries: { max_retries: 1 },
    });
    expect(
      await opened({ driver: "s3", bucket: "bkt", s3_request_concurrency: "s3_request_concurrency#few" }, context),
    ).toEqual(["s3://bkt/arr", { anonymous: true, concurrency: 2, retries: 1 }]);
    const bad = new SpecContext({ s3_request_retries: { max_retries: 0 } });
    await expect(opened({ driver: "s3", bucket: "bkt" }, bad)).rejects.toMatchObject({
      code: "ZARR_SPEC",
      message: expect.stringContaining("Expected integer in the range [1, 9223372036854775807], but received: 0"),
    });
    const imds = new SpecContext({ aws_credentials: { type: "imds" } });
    await expect(opened({ driver: "s3", bucket: "bkt" }, imds)).rejects.toMatchObject({
      code: "ZARR_SPEC_UNSUPPORTED",
      message: expect.stringContaining("instance metadata service"),
    });
  });

  it("names the package a browser build must be given", async () => {
    await expect(openSpecStore(spec("s3://bkt/x"), {})).rejects.toThrow(
      /openS3 \(pass s3Locations\(options\) from @z\/store-s3/,
    );
  });
});
