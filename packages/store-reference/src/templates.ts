import { ReferenceStoreError } from "./errors.js";
import { evaluate, render, type ExpressionValue } from "./expression.js";

const PLACEHOLDER = /\{\{(.*?)\}\}/gs;

/**
 * `text` with each `{{ expression }}` replaced by its value, as Jinja renders it: the way fsspec's
 * `ReferenceFileSystem` expands version-1 templates (kerchunk writes `{{u}}`) and `gen` entries.
 * A name that is neither a template nor a `gen` dimension is a `Z_REFERENCE_TEMPLATE` error
 * naming `where` (the key).
 */
export function renderTemplate(text: string, names: ReadonlyMap<string, ExpressionValue>, where: string): string {
  if (!text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (_, inner: string) => render(evaluate(inner, names, where)));
}

/**
 * The templates of a version-1 reference set (`"templates": {"u": "s3://bucket/file.nc"}`). A
 * template that is itself a Jinja template (fsspec makes a function of it, called with arguments
 * from the reference) is refused: kerchunk writes none.
 */
export function readTemplates(value: unknown): Map<string, ExpressionValue> {
  const templates = new Map<string, ExpressionValue>();
  if (value === undefined) return templates;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `"templates" must be an object of strings`);
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== "string")
      throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `template ${JSON.stringify(name)} must be a string`);
    if (text.includes("{{"))
      throw new ReferenceStoreError(
        "Z_REFERENCE_TEMPLATE",
        `template ${JSON.stringify(name)} is itself a Jinja template (${text}): template functions are not supported`,
      );
    templates.set(name, text);
  }
  return templates;
}
