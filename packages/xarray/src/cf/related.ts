/**
 * CF attributes that name other variables (CF conventions' "related data", xarray's
 * `CF_RELATED_DATA`): `decodeCoords: "all"` makes the variables they name coordinates when reading,
 * and writing moves them from a variable's encoding to its attributes.
 */
export const CF_RELATED_DATA = [
  "bounds",
  "grid_mapping",
  "climatology",
  "geometry",
  "node_coordinates",
  "node_count",
  "part_node_count",
  "interior_ring",
  "cell_measures",
  "formula_terms",
];
