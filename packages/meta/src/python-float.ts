/**
 * A float written as Python's `json.dumps` writes it: `repr(float)` (`0.0`, `1.5`, `1e-07`,
 * `1e+16`) for finite values, and the bare tokens `NaN`, `Infinity`, `-Infinity` otherwise.
 *
 * Both JS and Python pick the shortest digit string that reads back as the same double, so only the
 * layout differs: Python switches to exponent notation when the decimal point would sit more than
 * 16 digits right of the first digit or 4 zeros left of it, always keeps a `.0` on integral values,
 * and pads the exponent to at least two digits.
 */
export function formatPythonFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";

  const sign = x < 0 ? "-" : "";
  // toExponential() without an argument yields the shortest round-trip digits.
  const [mantissa = "", exponent = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  // The decimal point sits after `point` digits: value = 0.<digits> × 10^point.
  const point = Number(exponent) + 1;

  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }

  const e = point - 1;
  const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${lead}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}
