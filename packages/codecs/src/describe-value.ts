import { JsonFloat, type JsonValue } from "@z/meta";

/** A short, readable rendering of a JSON value for error messages: `"abc"`, `1.0`, `[1, 2]`. */
export function describeValue(value: JsonValue | undefined): string {
  const text = render(value, 0);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function render(value: JsonValue | undefined, depth: number): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof JsonFloat) return Number.isInteger(value.value) ? value.value.toFixed(1) : String(value.value);
  if (depth > 2) return "…";
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map((v) => render(v, depth + 1)).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as { [key: string]: JsonValue });
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${render(v, depth + 1)}`).join(", ")}}`;
  }
  return String(value);
}
