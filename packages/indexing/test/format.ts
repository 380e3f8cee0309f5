import { ELLIPSIS, isSlice, type BasicSelection } from "@z/indexing";

/** A selection as it is written in the tests (`[slice(1, null, 2), -1]`), for test names. */
export function formatSelection(selection: BasicSelection): string {
  const item = (i: unknown): string => {
    if (i === ELLIPSIS) return "ELLIPSIS";
    if (isSlice(i)) return `slice(${[i.start, i.stop, i.step].map(String).join(", ")})`;
    return String(i);
  };
  if (selection === undefined) return "undefined";
  return Array.isArray(selection) ? `[${selection.map(item).join(", ")}]` : item(selection);
}
