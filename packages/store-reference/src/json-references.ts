import { ReferenceStoreError } from "./errors.js";
import type { ExpressionValue } from "./expression.js";
import { expandGen } from "./gen.js";
import { inlineReference } from "./inline.js";
import type { Reference, ReferenceSource } from "./reference.js";
import { readTemplates, renderTemplate } from "./templates.js";

/** Options for reading a JSON reference set. */
export interface JsonReferenceOptions {
  /** Templates replacing those of the set (fsspec's `template_overrides`): e.g. another host for `u`. */
  readonly templateOverrides?: Readonly<Record<string, string>>;
}

/**
 * A JSON reference set, as fsspec's `ReferenceFileSystem` reads it: version 0 (`{key: value}`)
 * or version 1 (`{"version": 1, "templates": ..., "gen": ..., "refs": ...}`), each value inline
 * text, `base64:` bytes, a JSON object (metadata), `[url]` or `[url, offset, length]`. Templates
 * (`{{name}}`) are expanded in the URLs of version-1 references and in `gen` entries, whose
 * references replace those of `refs` under the same key, as in fsspec.
 */
export class JsonReferences implements ReferenceSource {
  readonly #refs: Map<string, Reference>;

  constructor(document: unknown, options: JsonReferenceOptions = {}) {
    this.#refs = parseReferences(document, options);
  }

  /** Parses the text of a reference file (`source` names it in errors). */
  static parse(text: string, source: string, options: JsonReferenceOptions = {}): JsonReferences {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (cause) {
      throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `${source} is not JSON: ${(cause as Error).message}`, {
        target: source,
        cause,
      });
    }
    try {
      return new JsonReferences(document, options);
    } catch (error) {
      if (error instanceof ReferenceStoreError)
        throw new ReferenceStoreError(error.referenceCode, `${source}: ${error.message}`, {
          ...(error.key === undefined ? {} : { key: error.key }),
          target: source,
          cause: error,
        });
      throw error;
    }
  }

  async reference(key: string): Promise<Reference | undefined> {
    return this.#refs.get(key);
  }

  async keys(): Promise<string[]> {
    return [...this.#refs.keys()];
  }
}

function parseReferences(document: unknown, options: JsonReferenceOptions): Map<string, Reference> {
  if (typeof document !== "object" || document === null || Array.isArray(document))
    throw new ReferenceStoreError("Z_REFERENCE_FORMAT", "a reference set must be a JSON object");
  const doc = document as Record<string, unknown>;
  const version = doc.version;
  const out = new Map<string, Reference>();
  if (version === undefined || version === null) {
    for (const [key, value] of Object.entries(doc)) out.set(key, entry(key, value, undefined));
    return out;
  }
  if (version !== 1)
    throw new ReferenceStoreError(
      "Z_REFERENCE_FORMAT",
      `unknown reference set version ${JSON.stringify(version)} (expected none, or 1)`,
      { key: "version" },
    );
  const templates = readTemplates(
    options.templateOverrides === undefined
      ? doc.templates
      : { ...(doc.templates as object | undefined), ...options.templateOverrides },
  );
  const refs = doc.refs ?? {};
  if (typeof refs !== "object" || refs === null || Array.isArray(refs))
    throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `"refs" must be an object`, { key: "refs" });
  for (const [key, value] of Object.entries(refs)) out.set(key, entry(key, value, templates));
  for (const [key, value] of expandGen(doc.gen, templates)) out.set(key, value);
  return out;
}

/** One value of a reference set; URLs rendered with `templates` (version 1 only). */
function entry(key: string, value: unknown, templates: ReadonlyMap<string, ExpressionValue> | undefined): Reference {
  if (typeof value === "string") return inlineReference(value, key);
  if (Array.isArray(value)) {
    const [url, offset, length] = value as unknown[];
    if (typeof url !== "string" || (value.length !== 1 && value.length !== 3)) throw badEntry(key, value);
    // fsspec expands templates only when the set has some (a URL holding "{{" is otherwise a name)
    const target = templates !== undefined && templates.size > 0 ? renderTemplate(url, templates, key) : url;
    if (value.length === 1) return { kind: "target", url: target };
    if (!isCount(offset) || !isCount(length)) throw badEntry(key, value);
    return { kind: "target", url: target, offset, length };
  }
  if (typeof value === "object" && value !== null) return inlineReference(value, key);
  throw badEntry(key, value);
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function badEntry(key: string, value: unknown): ReferenceStoreError {
  return new ReferenceStoreError(
    "Z_REFERENCE_FORMAT",
    `${JSON.stringify(key)}: expected text, "base64:..." text, an object, [url] or [url, offset, length], got ${JSON.stringify(value)?.slice(0, 100)}`,
    { key },
  );
}
