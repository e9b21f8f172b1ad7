import { createHash } from "node:crypto";

/**
 * What mem knows about one embedding model (models/catalogue.json, or `embedding.models` in
 * config.json): the prefixes its card asks for, its size and the priors fusion starts from.
 * Pure: parsing, validation and name matching; loading the shipped file is models.ts's.
 */

/** Which side of a search a text is on: what is indexed, or what is asked. */
export type EmbedKind = "document" | "query";

export interface Prefixes {
  query: string;
  document: string;
}

export interface ModelEntry {
  /** A short name for messages. */
  id: string;
  /** Ollama names (tags are ignored when matching) and Hugging Face ids this entry covers. */
  names: string[];
  prefixes: Prefixes;
  /** Output dimensions per the card; absent when sizes of the family differ (taken from the model). */
  dims?: number;
  /** Longest input per the card, in the model's tokens. */
  contextTokens?: number;
  /** How transformers.js pools token vectors into one ("mean" unless the card says CLS). */
  pooling: "mean" | "cls";
  /** The card's vectors are meant for cosine similarity (mem unit-normalises every vector anyway). */
  normalized: boolean;
  /** Where fusion starts before it has calibrated this model on the user's store. */
  priors: { vectorWeight: number };
  source?: string;
  /** What was checked against the card, and what was not. */
  verified?: string;
}

export const NO_PREFIXES: Prefixes = Object.freeze({ query: "", document: "" });

/** The prior for a model mem knows nothing about: trusted less than a catalogued one until calibrated. */
export const UNKNOWN_PRIORS = Object.freeze({ vectorWeight: 0.25 });
const KNOWN_PRIORS = { vectorWeight: 0.5 };

const MAX_PREFIX = 200;
const MAX_NAME = 200;
const MAX_NAMES = 50;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function positiveInt(v: unknown, max: number): boolean {
  return typeof v === "number" && Number.isInteger(v) && v > 0 && v <= max;
}

/** Validates one entry; throws an Error naming `where` and the field at fault. */
export function parseEntry(raw: unknown, where: string): ModelEntry {
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}`);
  };
  if (!isRecord(raw)) fail("must be an object");
  const r = raw as Record<string, unknown>;
  const known = new Set(["id", "names", "prefixes", "dims", "contextTokens", "pooling", "normalized", "priors", "source", "verified"]);
  for (const k of Object.keys(r)) if (!known.has(k)) fail(`unknown field "${k.slice(0, 40)}"`);
  const names = r.names;
  if (!Array.isArray(names) || names.length === 0 || names.length > MAX_NAMES) fail(`"names" must be a list of 1 to ${MAX_NAMES} model names`);
  for (const n of names as unknown[]) {
    if (typeof n !== "string" || n.trim() === "" || n.length > MAX_NAME || /[\u0000-\u001f]/.test(n)) fail(`"names" holds an empty, overlong or non-text name`);
  }
  const id = r.id ?? (names as string[])[0];
  if (typeof id !== "string" || id.trim() === "" || id.length > MAX_NAME) fail(`"id" must be a short name`);
  const p = r.prefixes;
  if (!isRecord(p)) fail(`"prefixes" must be an object {"query": "...", "document": "..."}`);
  const pr = p as Record<string, unknown>;
  for (const k of Object.keys(pr)) if (k !== "query" && k !== "document") fail(`"prefixes" has an unknown side "${k.slice(0, 40)}" (query or document)`);
  for (const side of ["query", "document"] as const) {
    const v = pr[side] ?? "";
    if (typeof v !== "string" || v.length > MAX_PREFIX || /[\u0000-\u0008\u000b-\u001f]/.test(v)) fail(`"prefixes.${side}" must be text of at most ${MAX_PREFIX} characters`);
  }
  if (r.dims !== undefined && !positiveInt(r.dims, 65_536)) fail(`"dims" must be a whole number from 1 to 65536`);
  if (r.contextTokens !== undefined && !positiveInt(r.contextTokens, 10_000_000)) fail(`"contextTokens" must be a positive whole number`);
  const pooling = r.pooling ?? "mean";
  if (pooling !== "mean" && pooling !== "cls") fail(`"pooling" must be "mean" or "cls"`);
  const normalized = r.normalized ?? true;
  if (typeof normalized !== "boolean") fail(`"normalized" must be true or false`);
  let priors = KNOWN_PRIORS;
  if (r.priors !== undefined) {
    const w = isRecord(r.priors) ? r.priors.vectorWeight : undefined;
    if (typeof w !== "number" || !(w >= 0 && w <= 1) || Object.keys(r.priors as object).some((k) => k !== "vectorWeight")) fail(`"priors" must be {"vectorWeight": a number from 0 to 1}`);
    priors = { vectorWeight: w as number };
  }
  for (const k of ["source", "verified"] as const) if (r[k] !== undefined && (typeof r[k] !== "string" || (r[k] as string).length > 1000)) fail(`"${k}" must be text`);
  return {
    id: id as string,
    names: names as string[],
    prefixes: { query: (pr.query ?? "") as string, document: (pr.document ?? "") as string },
    ...(r.dims !== undefined ? { dims: r.dims as number } : {}),
    ...(r.contextTokens !== undefined ? { contextTokens: r.contextTokens as number } : {}),
    pooling: pooling as "mean" | "cls",
    normalized: normalized as boolean,
    priors,
    ...(typeof r.source === "string" ? { source: r.source } : {}),
    ...(typeof r.verified === "string" ? { verified: r.verified } : {}),
  };
}

/** Validates a whole catalogue file: `{"version": 1, "models": [...]}`, no name claimed twice. */
export function parseCatalogue(raw: unknown, where = "models/catalogue.json"): ModelEntry[] {
  if (!isRecord(raw) || raw.version !== 1 || !Array.isArray(raw.models)) throw new Error(`${where}: expected {"version": 1, "models": [...]}`);
  const entries = raw.models.map((m, i) => parseEntry(m, `${where}: models[${i}]`));
  const seen = new Map<string, string>();
  for (const e of entries) {
    for (const n of e.names) {
      const key = normaliseModelName(n);
      const other = seen.get(key);
      if (other !== undefined) throw new Error(`${where}: "${n}" is claimed by both ${other} and ${e.id}`);
      seen.set(key, e.id);
    }
  }
  return entries;
}

/**
 * The form names are compared in: lower case, without an Ollama tag (`:latest`, `:v1.5`,
 * `:137m-v1.5-fp16`) and without Ollama's registry prefix. Hugging Face ids keep their owner.
 */
export function normaliseModelName(name: string): string {
  let n = name.trim().toLowerCase();
  n = n.replace(/^(https?:\/\/)?registry\.ollama\.ai\/(library\/)?/, "").replace(/^library\//, "");
  const slash = n.lastIndexOf("/");
  const colon = n.indexOf(":", slash + 1);
  if (colon >= 0) n = n.slice(0, colon);
  return n;
}

/** The entry that covers `model`, if any: the first list wins (config overrides before the shipped catalogue). */
export function matchModel(model: string, ...lists: ModelEntry[][]): ModelEntry | undefined {
  const key = normaliseModelName(model);
  for (const list of lists) {
    const hit = list.find((e) => e.names.some((n) => normaliseModelName(n) === key));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * A short tag for a prefix policy, part of the vector table's name so vectors made with different
 * prefixes never share a table. No prefixes: "" (the table keeps the name it had before prefixes).
 */
export function prefixTag(p: Prefixes | undefined): string {
  if (!p || (p.query === "" && p.document === "")) return "";
  return `p${createHash("sha256").update(`${p.query}\u0000${p.document}`).digest("hex").slice(0, 8)}`;
}

/** Puts the side's prefix before each text. */
export function withPrefix(texts: string[], kind: EmbedKind, p: Prefixes): string[] {
  const prefix = kind === "query" ? p.query : p.document;
  return prefix === "" ? texts : texts.map((t) => prefix + t);
}
