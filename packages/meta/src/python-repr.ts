// Python's `repr` of a string, of bytes and of a tuple of integers, as numpy's dtype reprs, `.npy`
// headers, the CLI's and xarray's printouts show names and values: one copy for all of them.

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr(str)`: single quotes unless the text has `'` and no `"`; escapes what is not printable. */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char !== " " && NON_PRINTABLE.test(char)) {
      if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
      else out += `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += char;
  }
  return out + quote;
}

/** Python's `repr(bytes)`: `b'...'` with printable ASCII as is, everything else as `\xhh`. */
export function pythonBytesRepr(bytes: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const b of bytes) {
    if (b === 0x27) hasSingle = true;
    else if (b === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? 0x22 : 0x27;
  let out = `b${String.fromCharCode(quote)}`;
  for (const b of bytes) {
    if (b === quote || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x09) out += "\\t";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return out + String.fromCharCode(quote);
}

/** Python's tuple repr of integers: `()`, `(3,)`, `(2, 3)`. */
export function pythonTupleRepr(values: readonly (number | string)[]): string {
  return values.length === 1 ? `(${values[0]},)` : `(${values.join(", ")})`;
}

/** zarr-python's `human_readable_size`. */
export function humanSize(n: number): string {
  const units = ["", "K", "M", "G", "T", "P"];
  let i = 0;
  while (i < units.length - 1 && n >= 2 ** (10 * (i + 1))) i++;
  return i === 0 ? String(n) : `${fixed1(n / 2 ** (10 * i))}${units[i]}`;
}

/** Python's `'%.1f'`: correctly rounded, ties to even (JS `toFixed` rounds ties up). */
export function fixed1(x: number): string {
  const scaled = x * 10;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5) return ((floor % 2 === 0 ? floor : floor + 1) / 10).toFixed(1);
  return x.toFixed(1);
}
