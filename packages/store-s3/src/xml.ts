// The two XML documents the store reads: S3's error answer and ListObjectsV2's result. Both are
// flat and small; these functions read exactly the elements the store needs, without a DOM (which
// Node lacks) or a general XML parser.

/** An S3 error document: `<Error><Code>NoSuchBucket</Code><Message>…</Message>…</Error>`. */
export interface S3ErrorDocument {
  code: string | undefined;
  message: string | undefined;
}

/** The `<Code>` and `<Message>` of an error document; both `undefined` when the text is not one. */
export function parseErrorDocument(text: string): S3ErrorDocument {
  const error = element(text, "Error");
  if (error === undefined) return { code: undefined, message: undefined };
  return { code: element(error, "Code"), message: element(error, "Message") };
}

/** One page of a ListObjectsV2 answer (`<ListBucketResult>`). */
export interface ListPage {
  /** `<Contents><Key>`: full object keys. */
  keys: string[];
  /** `<CommonPrefixes><Prefix>`: full prefixes, ending in the delimiter. */
  prefixes: string[];
  /** `<IsTruncated>true</IsTruncated>` */
  truncated: boolean;
  /** `<NextContinuationToken>`, for the next page. */
  nextToken: string | undefined;
}

/**
 * Reads a ListObjectsV2 page, or `undefined` when `text` is not a `<ListBucketResult>` (the
 * caller reports it: an empty listing must never stand in for an unreadable one).
 */
export function parseListPage(text: string): ListPage | undefined {
  const result = element(text, "ListBucketResult");
  if (result === undefined) return undefined;
  const keys: string[] = [];
  for (const contents of elements(result, "Contents")) {
    const key = element(contents, "Key");
    if (key !== undefined) keys.push(key);
  }
  const prefixes: string[] = [];
  for (const common of elements(result, "CommonPrefixes")) {
    const prefix = element(common, "Prefix");
    if (prefix !== undefined) prefixes.push(prefix);
  }
  // Only the top level's flags: Contents and CommonPrefixes hold none of these names.
  return {
    keys,
    prefixes,
    truncated: element(result, "IsTruncated")?.trim() === "true",
    nextToken: element(result, "NextContinuationToken"),
  };
}

/** The decoded text of the first `<name>` element in `xml` (`""` for `<name/>`), or `undefined`. */
function element(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${name}\\s*>)`).exec(xml);
  if (match === null) return undefined;
  return decodeEntities(match[1] ?? "");
}

/** The raw contents of every `<name>` element in `xml`. */
function* elements(xml: string, name: string): Generator<string> {
  const pattern = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}\\s*>`, "g");
  for (const match of xml.matchAll(pattern)) yield match[1] ?? "";
}

const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML's five named entities and numeric character references; CDATA sections as they are. */
export function decodeEntities(text: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(text);
  if (cdata !== null) return cdata[1] ?? "";
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]+);/g, (whole, entity: string) => {
    if (!entity.startsWith("#")) return named[entity] ?? whole;
    const code = entity.startsWith("#x") ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
