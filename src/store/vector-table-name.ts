/**
 * One LanceDB table per provider/model and dimension: vectors of two models never share a table.
 * In a file of its own so that what only names a table (the search, the daemon's bookkeeping) does
 * not load apache-arrow and LanceDB (about 130 ms of a `mem query` that never reads a vector).
 */
export function vectorTableName(provider: string, model: string, dims: number): string {
  const slug = `${provider}_${model}`.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `v_${slug}_${dims}`;
}
