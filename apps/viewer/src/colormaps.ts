/**
 * Colormaps as 256-entry RGB lookup tables. Each is given by evenly spaced stops (sRGB hex) and
 * interpolated linearly between them: gray exactly, viridis, magma and inferno from the nine stops
 * that matplotlib's tables pass through at 0, 1/8, …, 1 (close to the originals, within a few levels).
 */
const STOPS = {
  gray: ["#000000", "#ffffff"],
  viridis: ["#440154", "#472c7a", "#3b518b", "#2c718e", "#21908d", "#27ad81", "#5cc863", "#aadc32", "#fde725"],
  magma: ["#000004", "#1c1044", "#4f127b", "#812581", "#b5367a", "#e55964", "#fb8761", "#fec287", "#fcfdbf"],
  inferno: ["#000004", "#1f0c48", "#550f6d", "#88226a", "#ba3655", "#e35933", "#f98e09", "#f9cb35", "#fcffa4"],
} as const;

export type ColormapName = keyof typeof STOPS;
export const COLORMAPS = Object.keys(STOPS) as ColormapName[];

const parseHex = (hex: string): [number, number, number] =>
  [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

const tables = new Map<ColormapName, Uint8Array>();

/** The colormap's table: 256 × [r, g, b]; entry 0 is for the low contrast limit, 255 for the high. */
export function colormapTable(name: ColormapName): Uint8Array {
  let table = tables.get(name);
  if (table !== undefined) return table;
  const stops = STOPS[name].map(parseHex);
  table = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const position = (i / 255) * (stops.length - 1);
    const k = Math.min(Math.floor(position), stops.length - 2);
    const f = position - k;
    for (let c = 0; c < 3; c++) table[i * 3 + c] = Math.round(stops[k]![c]! * (1 - f) + stops[k + 1]![c]! * f);
  }
  tables.set(name, table);
  return table;
}

export const isColormap = (name: string): name is ColormapName => Object.hasOwn(STOPS, name);
