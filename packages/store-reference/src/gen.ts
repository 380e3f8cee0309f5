import { ReferenceStoreError } from "./errors.js";
import type { ExpressionValue } from "./expression.js";
import type { Reference } from "./reference.js";
import { renderTemplate } from "./templates.js";

/**
 * The references of a version-1 set's `gen` entries, expanded as fsspec's `_process_gen` does:
 * for each entry, every combination of its `dimensions` (a list of values, or
 * `{start, stop, step}` as Python's `range`; the last dimension varying fastest) renders `key`,
 * `url` and, when both are given, `offset` and `length` (as integers) with the dimensions and the
 * templates. One of `offset` and `length` without the other is an error, as in fsspec.
 */
export function expandGen(gen: unknown, templates: ReadonlyMap<string, ExpressionValue>): Map<string, Reference> {
  const out = new Map<string, Reference>();
  if (gen === undefined) return out;
  if (!Array.isArray(gen)) throw formatError(`"gen" must be a list of entries`);
  gen.forEach((entry: unknown, index) => {
    const where = `gen[${index}]`;
    if (typeof entry !== "object" || entry === null) throw formatError(`${where} must be an object`);
    const { key, url, offset, length, dimensions } = entry as Record<string, unknown>;
    for (const [name, value] of [
      ["key", key],
      ["url", url],
    ] as const)
      if (typeof value !== "string") throw formatError(`${where}.${name} must be a string`);
    if ((offset === undefined) !== (length === undefined))
      throw formatError(`${where}: both "offset" and "length" are required when either is given`);
    if (typeof dimensions !== "object" || dimensions === null || Array.isArray(dimensions))
      throw formatError(`${where}.dimensions must be an object`);
    const axes = Object.entries(dimensions).map(
      ([name, spec]) => [name, dimensionValues(spec, `${where}.dimensions.${name}`)] as const,
    );
    const names = new Map(templates);
    const counters = axes.map(() => 0);
    if (axes.some(([, values]) => values.length === 0)) return;
    for (;;) {
      axes.forEach(([name, values], d) => names.set(name, values[counters[d]!]!));
      const k = renderTemplate(key as string, names, `${where}.key`);
      const u = renderTemplate(url as string, names, `${where}.url (${k})`);
      if (offset === undefined) out.set(k, { kind: "target", url: u });
      else
        out.set(k, {
          kind: "target",
          url: u,
          offset: integer(renderTemplate(String(offset), names, `${where}.offset (${k})`), `${where}.offset (${k})`),
          length: integer(renderTemplate(String(length), names, `${where}.length (${k})`), `${where}.length (${k})`),
        });
      let d = axes.length - 1;
      while (d >= 0 && ++counters[d]! === axes[d]![1].length) counters[d--] = 0;
      if (d < 0) break;
    }
  });
  return out;
}

function dimensionValues(spec: unknown, where: string): ExpressionValue[] {
  if (Array.isArray(spec)) {
    if (!spec.every((v) => typeof v === "number" || typeof v === "string"))
      throw formatError(`${where}: a list of numbers or strings expected`);
    return spec as ExpressionValue[];
  }
  if (typeof spec !== "object" || spec === null) throw formatError(`${where}: a list or {start, stop, step} expected`);
  const { start = 0, stop, step = 1 } = spec as Record<string, unknown>;
  if (![start, stop, step].every((v) => Number.isSafeInteger(v)) || step === 0)
    throw formatError(`${where}: start, stop and step must be integers (stop required, step not 0)`);
  const values: number[] = [];
  for (let v = start as number; (step as number) > 0 ? v < (stop as number) : v > (stop as number); v += step as number)
    values.push(v);
  return values;
}

/** Python's `int(text)`: an optionally signed decimal integer, blanks around it allowed. */
function integer(text: string, where: string): number {
  const t = text.trim().replace(/_/g, "");
  const n = Number(t);
  if (!/^[-+]?\d+$/.test(t) || !Number.isSafeInteger(n) || n < 0)
    throw formatError(`${where}: ${JSON.stringify(text)} is not a non-negative integer`);
  return n;
}

const formatError = (message: string): ReferenceStoreError => new ReferenceStoreError("Z_REFERENCE_FORMAT", message);
