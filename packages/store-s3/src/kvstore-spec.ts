/*
 * TensorStore 0.1.85's `s3` kvstore (tensorstore/kvstore/s3/s3_key_value_store.cc, validate.cc,
 * s3_endpoint.cc, aws_credentials_spec.cc, s3_resource.cc): its spec members and `s3://` URLs
 * parsed and checked as TensorStore does, and what the `openS3` opener (`s3Locations`) is given for
 * them: the kvstore spec hook of `s3StoreDriver`, which `@z/spec` loads when a spec names `s3`.
 */
import type { JsonValue, KvStoreOpenTools, KvStoreSpecHook } from "@z/meta";
import {
  doubleValue,
  dumpJson,
  isObject,
  Members,
  requireBoolean,
  requireInteger,
  requireString,
  SpecError,
  SpecUnsupportedError,
} from "@z/meta/spec";

/** An `s3` kvstore spec. */
export interface S3KvStoreSpec {
  readonly driver: "s3";
  readonly bucket: string;
  readonly path: string;
  readonly requesterPays: boolean;
  readonly hostHeader: string | undefined;
  readonly endpoint: string | undefined;
  /** `""`: not given. */
  readonly awsRegion: string;
  readonly useConditionalWrite: boolean | undefined;
  /** The context resources the spec names (a reference, an inline spec, or `undefined`: the context's). */
  readonly awsCredentials: JsonValue | undefined;
  readonly requestConcurrency: JsonValue | undefined;
  readonly requestRetries: JsonValue | undefined;
}

/**
 * What the `openS3` opener is given besides the `s3://bucket/path` URL: the members of
 * `@z/store-s3`'s `S3StoreOptions` a spec decides (those it leaves out are the opener's own).
 */
export interface SpecS3Options {
  /** The spec's `endpoint`. */
  endpoint?: string;
  /** The spec's `aws_region`. */
  region?: string;
  /** `true` with an `endpoint`: TensorStore addresses the bucket in the path (`<endpoint>/<bucket>`). */
  forcePathStyle?: boolean;
  /** `aws_credentials` `{"type": "anonymous"}`. */
  anonymous?: boolean;
  /** The spec's `requester_pays`. */
  requesterPays?: boolean;
  /** `s3_request_concurrency.limit`. */
  concurrency?: number;
  /** `s3_request_retries.max_retries`. */
  retries?: number;
  /** `s3_request_retries.initial_delay`, in milliseconds. */
  retryDelay?: number;
  /** `s3_request_retries.max_delay`, in milliseconds. */
  maxRetryDelay?: number;
}

const MAX_INT64 = 9223372036854775807n;

type BucketNameType = "invalid" | "standard" | "oldUsEast1";

/** TensorStore's `ClassifyBucketName` (S3's naming rules, and the old us-east-1 ones). */
export function classifyBucketName(bucket: string): BucketNameType {
  if (
    bucket.length < 3 ||
    bucket.length > 255 ||
    bucket.endsWith("--ol-s3") ||
    bucket.endsWith("-s3alias") ||
    bucket.startsWith("sthree-") ||
    bucket.startsWith("xn--")
  )
    return "invalid";
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bucket)) return "invalid";
  if (bucket.length <= 63 && /^([a-z0-9]([a-z0-9-]*[a-z0-9])?)([.]([a-z0-9]([a-z0-9-]*[a-z0-9])?))*$/.test(bucket))
    return "standard";
  return /^([a-zA-Z0-9]([a-zA-Z0-9_-]*[a-zA-Z0-9])?)([.]([a-zA-Z0-9]([a-zA-Z0-9_-]*[a-zA-Z0-9])?))*$/.test(bucket)
    ? "oldUsEast1"
    : "invalid";
}

const invalidBucket = (bucket: string, member: string): SpecError =>
  new SpecError(`Invalid S3 bucket name: ${JSON.stringify(bucket)}`, { member });

/** The members of an `s3` kvstore spec after `driver`, `path` and `context`, in TensorStore's order. */
export function parseS3Members(m: Members, path: string): S3KvStoreSpec {
  const str = (name: string): string | undefined => {
    const v = m.take(name);
    return v === undefined ? undefined : requireString(v, m.at(name));
  };
  const bucket = str("bucket") ?? "";
  const pays = m.take("requester_pays");
  const requesterPays = pays === undefined ? false : requireBoolean(pays, m.at("requester_pays"));
  const hostHeader = str("host_header");
  const endpoint = str("endpoint");
  const awsRegion = str("aws_region") ?? "";
  const conditional = m.take("use_conditional_write");
  const useConditionalWrite =
    conditional === undefined ? undefined : requireBoolean(conditional, m.at("use_conditional_write"));
  const awsCredentials = resourceMember(m, "aws_credentials");
  const requestConcurrency = resourceMember(m, "s3_request_concurrency");
  resourceMember(m, "experimental_s3_rate_limiter");
  const requestRetries = resourceMember(m, "s3_request_retries");
  resourceMember(m, "data_copy_concurrency");
  m.done();
  // TensorStore's jb::Validate, after the members.
  if (bucket !== "" && classifyBucketName(bucket) === "invalid") throw invalidBucket(bucket, m.path);
  if (endpoint === undefined || endpoint === "") {
    if (bucket === "")
      throw new SpecError('"bucket" must be specified when "endpoint" is not set', { member: m.at("bucket") });
    if (hostHeader !== undefined && hostHeader !== "")
      throw new SpecError('"host_header" cannot be set without also setting "endpoint"', {
        member: m.at("host_header"),
      });
  }
  return {
    driver: "s3",
    bucket,
    path,
    requesterPays,
    hostHeader,
    endpoint,
    awsRegion,
    useConditionalWrite,
    awsCredentials,
    requestConcurrency,
    requestRetries,
  };
}

/** A context resource member: a reference (`"aws_credentials#name"`) or an inline spec, checked now. */
function resourceMember(m: Members, provider: S3Provider | "data_copy_concurrency"): JsonValue | undefined {
  const value = m.take(provider);
  if (value === undefined || value === null) return undefined;
  const member = m.at(provider);
  if (typeof value === "string") {
    if (value !== provider && !value.startsWith(`${provider}#`))
      throw new SpecError(
        `Invalid spec or reference to ${JSON.stringify(provider)} resource: ${JSON.stringify(value)}`,
        {
          member,
        },
      );
    return value;
  }
  if (provider === "data_copy_concurrency") {
    if (!isObject(value)) throw new SpecError(`Expected object, but received: ${dumpJson(value)}`, { member });
  } else checkS3Resource(provider, value, member);
  return value;
}

/** The context resources of the s3 kvstore. */
export type S3Provider =
  | "aws_credentials"
  | "s3_request_concurrency"
  | "s3_request_retries"
  | "experimental_s3_rate_limiter";

const CREDENTIAL_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  default: ["profile"],
  anonymous: [],
  environment: [],
  imds: [],
  profile: ["profile", "config_file", "credentials_file"],
  ecs: ["endpoint", "auth_token_file"],
};

/** Checks an s3 resource's JSON spec as TensorStore's binders do. */
export function checkS3Resource(provider: S3Provider, j: JsonValue, member: string): void {
  if (provider === "aws_credentials") {
    if (!isObject(j)) throw new SpecError(`Expected object, but received: ${dumpJson(j)}`, { member });
    const prefix = "Failed to parse AWS credentials spec: ";
    const type = j.type;
    if (type === undefined)
      throw new SpecError(`${prefix}Error parsing object member "type": Expected string, but member is missing`, {
        member: `${member}.type`,
      });
    if (typeof type !== "string")
      throw new SpecError(
        `${prefix}Error parsing object member "type": Expected string, but received: ${dumpJson(type)}`,
        {
          member: `${member}.type`,
        },
      );
    const allowed = CREDENTIAL_MEMBERS[type];
    if (allowed === undefined || !Object.hasOwn(CREDENTIAL_MEMBERS, type))
      throw new SpecError(
        `${prefix}Failed to parse tag name, expected one of: ${Object.keys(CREDENTIAL_MEMBERS).join(", ")}, but received: ${type}`,
        { member: `${member}.type` },
      );
    const m = new Members(j, member);
    m.take("type");
    for (const name of allowed) {
      const v = m.take(name);
      if (v !== undefined) requireString(v, m.at(name));
    }
    m.done();
    return;
  }
  const m = new Members(j, member);
  if (provider === "s3_request_concurrency") {
    const limit = m.take("limit");
    if (limit !== undefined && limit !== "shared") requireInteger(limit, m.at("limit"), 1, 18446744073709551615n);
  } else if (provider === "s3_request_retries") {
    const max = m.take("max_retries");
    if (max !== undefined) requireInteger(max, m.at("max_retries"), 1, MAX_INT64);
    for (const name of ["initial_delay", "max_delay"]) {
      const v = m.take(name);
      if (v !== undefined) parseDuration(v, m.at(name));
    }
  } else {
    for (const name of ["read_rate", "write_rate"]) {
      const v = m.take(name);
      if (v !== undefined && doubleValue(v, true) === undefined)
        throw new SpecError(`Expected 64-bit floating-point number, but received: ${dumpJson(v)}`, {
          member: m.at(name),
        });
    }
    const doubling = m.take("doubling_time");
    if (doubling !== undefined) parseDuration(doubling, m.at("doubling_time"));
  }
  m.done();
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** An `absl::ParseDuration` string (`"1s"`, `"1.5m"`, `"1h30m"`, `"0"`, `"inf"`), in milliseconds. */
export function parseDuration(j: JsonValue, member: string): number {
  const fail = (): SpecError =>
    new SpecError(
      `Expected Duration formatted as a string using time units "ns", "us" "ms", "s", "m", or "h"., but received: ${dumpJson(j)}`,
      { member },
    );
  if (typeof j !== "string") throw fail();
  let text = j;
  let sign = 1;
  if (text.startsWith("-") || text.startsWith("+")) {
    sign = text.startsWith("-") ? -1 : 1;
    text = text.slice(1);
  }
  if (text === "0") return 0;
  if (text === "inf") return sign * Number.POSITIVE_INFINITY;
  if (text === "") throw fail();
  let ms = 0;
  const part = /^(\d+\.?\d*|\.\d+)(ns|us|ms|s|m|h)/;
  while (text !== "") {
    const match = part.exec(text);
    if (match === null) throw fail();
    ms += Number(match[1]) * DURATION_UNITS[match[2]!]!;
    text = text.slice(match[0].length);
  }
  return sign * ms;
}

/** An `s3://bucket/path` URL (TensorStore's `ParseS3Url`). */
export function parseS3KvStoreUrl(root: string, member: string, decode: (text: string) => string): S3KvStoreSpec {
  if (!root.startsWith("s3://")) throw new SpecError('Scheme "s3://" not present in url', { member });
  const rest = root.slice("s3://".length);
  if (rest.includes("?")) throw new SpecError("Query string not supported", { member });
  if (rest.includes("#")) throw new SpecError("Fragment identifier not supported", { member });
  const slash = rest.indexOf("/");
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  if (classifyBucketName(bucket) === "invalid") throw invalidBucket(bucket, member);
  return {
    driver: "s3",
    bucket,
    path: slash < 0 ? "" : decode(rest.slice(slash + 1)),
    requesterPays: false,
    hostHeader: undefined,
    endpoint: undefined,
    awsRegion: "",
    useConditionalWrite: undefined,
    awsCredentials: undefined,
    requestConcurrency: undefined,
    requestRetries: undefined,
  };
}

/** The spec as TensorStore's JSON (members at their defaults left out, as TensorStore writes it). */
export function s3KvStoreJson(spec: S3KvStoreSpec): JsonValue {
  const out: Record<string, JsonValue> = { driver: "s3" };
  if (spec.bucket !== "") out.bucket = spec.bucket;
  if (spec.path !== "") out.path = spec.path;
  if (spec.requesterPays) out.requester_pays = true;
  if (spec.hostHeader !== undefined) out.host_header = spec.hostHeader;
  if (spec.endpoint !== undefined) out.endpoint = spec.endpoint;
  if (spec.awsRegion !== "") out.aws_region = spec.awsRegion;
  if (spec.useConditionalWrite !== undefined) out.use_conditional_write = spec.useConditionalWrite;
  if (spec.awsCredentials !== undefined) out.aws_credentials = spec.awsCredentials;
  if (spec.requestConcurrency !== undefined) out.s3_request_concurrency = spec.requestConcurrency;
  if (spec.requestRetries !== undefined) out.s3_request_retries = spec.requestRetries;
  return out;
}

/** Why z cannot get credentials of each TensorStore provider it refuses. */
const CREDENTIALS_REFUSED: Readonly<Record<string, string>> = {
  profile:
    'AWS profile files (~/.aws/credentials, ~/.aws/config) are not read by this library: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (aws configure export-credentials --format env prints them) and use {"type": "environment"}, or pass credentials to s3Locations',
  imds: 'the EC2 instance metadata service (IMDS) is not queried by this library: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY and use {"type": "environment"}, or pass credentials to s3Locations',
  ecs: 'ECS container credentials are not fetched by this library: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY and use {"type": "environment"}, or pass credentials to s3Locations',
};

/**
 * What TensorStore checks when it opens an s3 kvstore (`ValidateEndpoint`, the credentials
 * provider), then the `s3://` URL and options the `openS3` opener is given. What TensorStore does
 * and this library does not is refused here, saying why.
 */
export function s3Opening(
  spec: S3KvStoreSpec,
  context: Pick<KvStoreOpenTools, "resource">,
  member = "kvstore",
): { url: string; options: SpecS3Options } {
  const endpoint = spec.endpoint === "" ? undefined : spec.endpoint;
  let region = spec.awsRegion;
  if (spec.bucket === "")
    throw new SpecUnsupportedError(
      'an empty "bucket" (a virtual-hosted endpoint naming the bucket) is not supported: give "bucket", and the service\'s URL as "endpoint"',
      { member: `${member}.bucket` },
    );
  if (classifyBucketName(spec.bucket) === "oldUsEast1") {
    if (region !== "" && region !== "us-east-1")
      throw new SpecError(
        `Bucket ${JSON.stringify(spec.bucket)} requires aws_region "us-east-1", not ${JSON.stringify(region)}`,
        { member: `${member}.aws_region` },
      );
    region = "us-east-1";
  }
  if (endpoint !== undefined) {
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(endpoint)?.[1] ?? "";
    if (scheme !== "http" && scheme !== "https")
      throw new SpecError(`Endpoint ${endpoint} has invalid scheme ${scheme}. Should be http(s).`, {
        member: `${member}.endpoint`,
      });
    if (endpoint.includes("?"))
      throw new SpecError(`Query in endpoint unsupported ${endpoint}`, { member: `${member}.endpoint` });
    if (endpoint.includes("#"))
      throw new SpecError(`Fragment in endpoint unsupported ${endpoint}`, { member: `${member}.endpoint` });
  }
  if (spec.hostHeader !== undefined && spec.hostHeader !== "")
    throw new SpecUnsupportedError(
      "a Host header other than the endpoint's is not supported: fetch does not let a request set Host (and requests are signed for the endpoint's host)",
      { member: `${member}.host_header` },
    );
  if (spec.useConditionalWrite === true)
    throw new SpecUnsupportedError(
      "conditional writes are not supported: this library writes each chunk with an unconditional PUT, as zarr-python does (use false, or leave it out)",
      { member: `${member}.use_conditional_write` },
    );
  if (spec.path.startsWith("/"))
    throw new SpecUnsupportedError(
      `the path ${JSON.stringify(spec.path)} starts with "/": object keys beginning with "/" are not supported`,
      { member: `${member}.path` },
    );

  const options: SpecS3Options = {};
  const credentials = resolved(context, "aws_credentials", spec.awsCredentials, `${member}.aws_credentials`);
  const type = isObject(credentials) && typeof credentials.type === "string" ? credentials.type : "default";
  if (CREDENTIALS_REFUSED[type] !== undefined)
    throw new SpecUnsupportedError(CREDENTIALS_REFUSED[type]!, { member: `${member}.aws_credentials` });
  if (type === "default" && isObject(credentials) && credentials.profile !== undefined)
    throw new SpecUnsupportedError(CREDENTIALS_REFUSED.profile!, { member: `${member}.aws_credentials.profile` });
  if (type === "anonymous") options.anonymous = true;
  if (endpoint !== undefined) {
    options.endpoint = endpoint;
    options.forcePathStyle = true;
  }
  if (region !== "") options.region = region;
  if (spec.requesterPays) options.requesterPays = true;
  const concurrency = resolved(context, "s3_request_concurrency", spec.requestConcurrency, member);
  if (isObject(concurrency) && concurrency.limit !== undefined && concurrency.limit !== "shared")
    options.concurrency = requireInteger(concurrency.limit, `${member}.s3_request_concurrency`, 1, MAX_INT64);
  const retries = resolved(context, "s3_request_retries", spec.requestRetries, member);
  if (isObject(retries)) {
    const at = `${member}.s3_request_retries`;
    if (retries.max_retries !== undefined) options.retries = requireInteger(retries.max_retries, at, 1, MAX_INT64);
    if (retries.initial_delay !== undefined) options.retryDelay = parseDuration(retries.initial_delay, at);
    if (retries.max_delay !== undefined) options.maxRetryDelay = parseDuration(retries.max_delay, at);
  }
  const encoded = spec.path.replace(/\/+$/, "").split("/").map(encodeURIComponent).join("/");
  return { url: `s3://${spec.bucket}/${encoded}`, options };
}

/** The resource a member names, from the context, checked (a context's own spec is checked here). */
function resolved(
  context: Pick<KvStoreOpenTools, "resource">,
  provider: S3Provider,
  ref: JsonValue | undefined,
  member: string,
): JsonValue {
  const value = context.resource(provider, ref, member);
  // The context's default resource is `{}`: TensorStore's defaults (`{"type": "default"}` for credentials).
  if (provider === "aws_credentials" && isObject(value) && Object.keys(value).length === 0) return value;
  checkS3Resource(provider, value, member);
  return value;
}

/** The hook `s3StoreDriver.kvstoreSpec()` gives: `{"driver": "s3", ...}` and `s3://bucket/path`. */
export const s3KvStoreSpec: KvStoreSpecHook<S3KvStoreSpec> = {
  drivers: ["s3"],
  urlSchemes: ["s3"],
  // An s3 kvstore's members are options of the opener: `s3Locations(options)` takes them.
  openerExports: { openS3: "s3Locations(options)" },
  parse: (m, path) => parseS3Members(m, path),
  parseUrl: (root, member, tools) => {
    // TensorStore's URL schemes are case-sensitive: `S3://` is not its s3 kvstore.
    const raw = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(root)?.[1];
    if (raw !== "s3")
      throw new SpecError(`unsupported URL scheme ${JSON.stringify(raw)} in ${JSON.stringify(root)}`, { member });
    return parseS3KvStoreUrl(root, member, (text) => tools.decode(text, member));
  },
  toJson: (spec) => s3KvStoreJson(spec),
  describe: (spec) => `s3://${spec.bucket}/${spec.path}${spec.endpoint ? ` at ${spec.endpoint}` : ""}`,
  openers: () => ["openS3"],
  open: async (spec, tools) => {
    const { url, options } = s3Opening(spec, tools);
    const openS3 = tools.stores.openS3 as (
      url: string,
      options: SpecS3Options,
    ) => ReturnType<NonNullable<typeof tools.stores.openS3>>;
    return { store: openS3(url, options), path: "" };
  },
};
