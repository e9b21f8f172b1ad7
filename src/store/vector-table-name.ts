/**
 * One LanceDB table per provider/model, dimension and prefix policy: vectors of two models (or of
 * one model fed two ways) never share a table.
 * In a file of its own so that what only names a table (the search, the daemon's bookkeeping) does
 * not load apache-arrow and LanceDB (about 130 ms of a `mem query` that never reads a vector).
 */
import { createHash } from "node:crypto";
import { prefixTag, type Prefixes } from "../config/catalogue.js";
import { cleanText } from "../redact/clean.cjs";

/**
 * The table of `p`'s vectors: provider, model, dims, and a tag of its prefix policy when it has
 * one (a change of prefixes builds a new table; a model without prefixes keeps the name it had).
 */
export function vectorTableName(p: { readonly name: string; readonly model: string; readonly prefixes?: Prefixes }, dims: number): string {
  // Redacted before it is cut to a slug: a secret in a model name (a token in a URL) would no
  // longer be recognised once lower-cased and cut, and the name is stored in SQLite and on disk.
  // What redaction took out is told apart by a short hash, so two such models never share a table.
  const raw = `${p.name}_${p.model}`;
  const said = cleanText(raw);
  const slug = `${said.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "")}${said === raw ? "" : `_${createHash("sha256").update(raw).digest("hex").slice(0, 8)}`}`;
  const tag = prefixTag(p.prefixes);
  return `v_${slug}_${dims}${tag ? `_${tag}` : ""}`;
}
