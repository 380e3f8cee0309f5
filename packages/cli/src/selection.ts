// numpy-style selection text (`0:10,::2`, `5`, `...,-1`, `:`) for the basic selections zarr-python
// supports: integers, slices with a positive step, and one ellipsis.

import { ELLIPSIS, slice, type BasicSelectionItem } from "@z/core";
import { CommandError, UsageError } from "./command.js";

const INTEGER = /^[+-]?\d+$/;

/** Parses selection text; `""` (or `[]`) selects everything. Syntax errors are `UsageError`s. */
export function parseSelection(text: string): BasicSelectionItem[] {
  let body = text.trim();
  if (body.startsWith("[") && body.endsWith("]")) body = body.slice(1, -1).trim();
  if (body === "") return [];
  const items = body.split(",").map((s) => s.trim());
  if (items.length > 1 && items[items.length - 1] === "") items.pop(); // `5,` as in Python
  return items.map((item, i) => parseItem(item, i, text));
}

function parseItem(item: string, i: number, text: string): BasicSelectionItem {
  const bad = (why: string): never => {
    throw new UsageError(`bad selection ${JSON.stringify(text)}: item ${i + 1} ${JSON.stringify(item)} ${why}`);
  };
  if (item === "..." || item === "Ellipsis") return ELLIPSIS;
  if (item === "") return bad("is empty (use : for a whole dimension)");
  if (INTEGER.test(item)) return integer(item, bad);
  const parts = item.split(":");
  if (parts.length === 1) return bad("is not an integer, a slice such as 2:10:2, or ...");
  if (parts.length > 3) return bad("has more than two colons");
  const [start, stop, step] = parts.map((p) => {
    const t = p.trim();
    if (t === "" || t === "None") return null;
    if (!INTEGER.test(t)) return bad(`has a slice bound ${JSON.stringify(t)} that is not an integer`);
    return integer(t, bad);
  });
  if (step === 0) bad("has a slice step of zero");
  return slice(start ?? null, stop ?? null, step ?? null);
}

function integer(text: string, bad: (why: string) => never): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) bad("is too large");
  return n;
}

/** One dimension of a resolved selection: an integer (the dimension is dropped) or a range. */
export type ResolvedDim =
  | { readonly kind: "index"; readonly index: number }
  | { readonly kind: "range"; readonly start: number; readonly step: number; readonly length: number };

/**
 * The selection applied to `shape`, as zarr-python resolves it: the ellipsis expanded, missing
 * trailing dimensions selected whole, negative indices counted from the end, slices clamped.
 * Errors are `CommandError`s (exit 1), as they depend on the array.
 */
export function resolveSelection(items: readonly BasicSelectionItem[], shape: readonly number[]): ResolvedDim[] {
  const ellipses = items.filter((x) => x === ELLIPSIS).length;
  if (ellipses > 1) throw new CommandError(`a selection can only have a single ellipsis ("..."), found ${ellipses}`);
  let expanded = [...items];
  if (ellipses === 1) {
    const at = items.indexOf(ELLIPSIS);
    const fill = new Array<BasicSelectionItem>(Math.max(shape.length - (items.length - 1), 0)).fill(null);
    expanded = [...items.slice(0, at), ...fill, ...items.slice(at + 1)];
  }
  if (expanded.length > shape.length) {
    throw new CommandError(`too many indices for array; expected ${shape.length}, got ${expanded.length} (array shape [${shape.join(", ")}])`);
  }
  return shape.map((length, dim) => {
    const item = expanded[dim] ?? null;
    if (typeof item === "number") {
      const index = item < 0 ? item + length : item;
      if (index < 0 || index >= length) throw new CommandError(`index ${item} is out of bounds for dimension ${dim} with length ${length}`);
      return { kind: "index", index };
    }
    if (item === null || item === ELLIPSIS) return { kind: "range", start: 0, step: 1, length };
    const step = item.step ?? 1;
    if (step < 1) throw new CommandError(`only slices with step >= 1 are supported, got step ${step} in dimension ${dim}`);
    const clamp = (v: number | null, fallback: number): number => (v === null ? fallback : Math.min(Math.max(v < 0 ? v + length : v, 0), length));
    const start = clamp(item.start, 0);
    const stop = clamp(item.stop, length);
    return { kind: "range", start, step, length: stop > start ? Math.ceil((stop - start) / step) : 0 };
  });
}

/** The shape of what a resolved selection reads (integer dimensions dropped). */
export function selectionShape(dims: readonly ResolvedDim[]): number[] {
  return dims.flatMap((d) => (d.kind === "range" ? [d.length] : []));
}

/**
 * A resolved selection as items for `ZarrArray.get`, with some output dimensions cut to
 * `[from, to)` (`cuts[outDim]`; the others whole).
 */
export function toSelectionItems(dims: readonly ResolvedDim[], cuts: readonly ((readonly [number, number]) | undefined)[] = []): BasicSelectionItem[] {
  let out = -1;
  return dims.map((d) => {
    if (d.kind === "index") return d.index;
    out++;
    const [from, to] = cuts[out] ?? [0, d.length];
    return slice(d.start + from * d.step, d.start + to * d.step, d.step);
  });
}
