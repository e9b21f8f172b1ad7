/**
 * One LanceDB table per provider/model, dimension and prefix policy: vectors of two models (or of
 * one model fed two ways) never share a table.
 * In a file of its own so that what only names a table (the search, the daemon's bookkeeping) does
 * not load apache-arrow and LanceDB (about 130 ms of a `mem query` that never reads a vector).
 */
import { prefixTag, type Prefixes } from "../embed/catalogue.js";

/**
 * The table of `p`'s vectors: provider, model, dims, and a tag of its prefix policy when it has
 * one (a change of prefixes builds a new table; a model without prefixes keeps the name it had).
 */
export function vectorTableName(p: { readonly name: string; readonly model: string; readonly prefixes?: Prefixes }, dims: number): string {
  const slug = `${p.name}_${p.model}`.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  const tag = prefixTag(p.prefixes);
  return `v_${slug}_${dims}${tag ? `_${tag}` : ""}`;
}
