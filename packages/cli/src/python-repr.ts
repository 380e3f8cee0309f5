// Python's `repr` of the few value types this package prints or writes the way Python does
// (`.npy` headers, numpy-style array text).

// `repr(str)` is @z/meta's `pythonStrRepr`.

/** Python's `repr(bytes)`: `b'...'` with printable ASCII as is, everything else as `\xhh`. */
export function pyBytesRepr(bytes: Uint8Array): string {
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
export function pyTupleRepr(values: readonly (number | string)[]): string {
  return values.length === 1 ? `(${values[0]},)` : `(${values.join(", ")})`;
}
