import type { DataType } from "@z/meta";
import { dataTypeEquals } from "@z/meta";

/** The smallest float (in bytes) numpy deems a safe target for an integer of `bytes` bytes. */
const floatFor = (bytes: number): number => (bytes === 1 ? 2 : bytes === 2 ? 4 : 8);

/** numpy's `can_cast(from, to, "safe")` for numeric and string dtypes; byte order does not matter. */
export function canCastSafely(from: DataType, to: DataType): boolean {
  if (dataTypeEquals(from, to)) return true;
  if (from.kind === "structured" || to.kind === "structured") return false;
  const a = from.itemsize;
  const b = to.itemsize;
  switch (from.kind) {
    case "b":
      return "biufc".includes(to.kind);
    case "u":
    case "i":
      if (to.kind === "u") return from.kind === "u" && b >= a;
      if (to.kind === "i") return from.kind === "i" ? b >= a : b > a;
      if (to.kind === "f") return b >= floatFor(a);
      if (to.kind === "c") return b / 2 >= floatFor(a);
      return false;
    case "f":
      return (to.kind === "f" && b >= a) || (to.kind === "c" && b >= 2 * a);
    case "c":
      return to.kind === "c" && b >= a;
    case "S":
    case "U":
      return to.kind === from.kind && b >= a;
    default:
      return false;
  }
}
