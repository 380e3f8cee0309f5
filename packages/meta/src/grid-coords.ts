/**
 * The coordinates of every chunk of a chunk grid, in C order, as `itertools.product` gives them
 * (none when a dimension has no chunks).
 */
export function* gridCoords(grid: readonly number[]): Generator<number[]> {
  if (grid.some((n) => n === 0)) return;
  const coords = grid.map(() => 0);
  for (;;) {
    yield [...coords];
    let d = grid.length - 1;
    while (d >= 0 && ++coords[d]! === grid[d]) coords[d--] = 0;
    if (d < 0) return;
  }
}
