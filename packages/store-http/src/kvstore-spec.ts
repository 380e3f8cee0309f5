/*
 * TensorStore's `http` kvstore (tensorstore/kvstore/http/http_key_value_store.cc) in a spec:
 * `{"driver": "http", "base_url": ..., "path": ..., "headers": [...]}` and `http(s)://` URLs,
 * opened as a store (`openHttp`, `openHttpWithHeaders`) or, under a zip kvstore, as one file
 * (`openHttpFile`). The kvstore spec hook of `httpStoreDriver`, which `@z/spec` loads when a spec
 * names `http`.
 */
import type { KvStoreSpecHook } from "@z/meta";
import { dumpJson, requireString, SpecError } from "@z/meta/spec";

/** An `http` kvstore spec. */
export interface HttpKvStoreSpec {
  readonly driver: "http";
  /** `scheme://host`. */
  readonly baseUrl: string;
  readonly path: string;
  /** `"name: value"` strings, sent with every request. */
  readonly headers: readonly string[];
}

const url = (s: HttpKvStoreSpec): string =>
  `${s.baseUrl.replace(/\/+$/, "")}/${s.path.replace(/\/+$/, "").replace(/^\/+/, "")}`;

/** The hook `httpStoreDriver.kvstoreSpec()` gives. */
export const httpKvStoreSpec: KvStoreSpecHook<HttpKvStoreSpec> = {
  drivers: ["http"],
  urlSchemes: ["http", "https"],
  parse: (m, path) => {
    const base = m.take("base_url");
    if (base === undefined) throw new SpecError("Expected string, but member is missing", { member: m.at("base_url") });
    const baseUrl = requireString(base, m.at("base_url"));
    if (!/^https?:\/\//i.test(baseUrl))
      throw new SpecError(`Expected http or https URL, but received: ${dumpJson(baseUrl)}`, {
        member: m.at("base_url"),
      });
    const headersValue = m.take("headers");
    let headers: string[] = [];
    if (headersValue !== undefined) {
      if (!Array.isArray(headersValue) || headersValue.some((h) => typeof h !== "string" || !h.includes(":")))
        throw new SpecError(`Expected array of "name: value" strings, but received: ${dumpJson(headersValue)}`, {
          member: m.at("headers"),
        });
      headers = headersValue as string[];
    }
    m.take("http_request_concurrency");
    m.take("http_request_retries");
    return { driver: "http", baseUrl, path, headers };
  },
  parseUrl: (root, member, tools) => {
    const parsed = new URL(root);
    return {
      driver: "http",
      baseUrl: `${parsed.protocol}//${parsed.host}`,
      path: tools.decode(parsed.pathname, member),
      headers: [],
    };
  },
  toJson: (spec) => ({ driver: "http", base_url: spec.baseUrl, path: spec.path }),
  describe: (spec) => `${spec.baseUrl.replace(/\/$/, "")}/${spec.path.replace(/^\//, "")}`,
  openers: (spec) => [spec.headers.length > 0 ? "openHttpWithHeaders" : "openHttp"],
  open: async (spec, { stores }) => {
    if (spec.headers.length === 0) return { store: stores.openHttp!(url(spec)), path: "" };
    const headers = Object.fromEntries(
      spec.headers.map((h) => [h.slice(0, h.indexOf(":")).trim(), h.slice(h.indexOf(":") + 1).trim()]),
    );
    return { store: stores.openHttpWithHeaders!(url(spec), headers), path: "" };
  },
  sourceOpeners: () => ["openHttpFile"],
  openSource: async (spec, { stores }) => stores.openHttpFile!(url(spec)),
};
