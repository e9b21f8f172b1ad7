import { parse as parseYaml } from "yaml";

export interface Metadata {
  tags: string[];
  kind?: string;
  /** ISO date (YYYY-MM-DD or full timestamp) from `date`, `updated` or `created`. */
  date?: string;
  title?: string;
  /** Every other frontmatter key, kept as given (JSON-safe). */
  extra: Record<string, unknown>;
}

export interface Parsed {
  body: string;
  /** 1-based line number in the file where `body` starts. */
  bodyLine: number;
  meta: Metadata;
  /** Set when a frontmatter block was present but could not be used; the body is still indexed. */
  warning?: string;
}

function toDate(v: unknown): string | undefined {
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v.toISOString().slice(0, v.getUTCHours() || v.getUTCMinutes() ? 19 : 10);
  if (typeof v === "string" && !Number.isNaN(Date.parse(v))) return v.trim();
  return undefined;
}

function toTags(v: unknown): string[] {
  const raw = Array.isArray(v) ? v : typeof v === "string" ? v.split(/[,\s]+/) : [];
  return [...new Set(raw.filter((t): t is string | number => typeof t === "string" || typeof t === "number").map((t) => String(t).trim().replace(/^#/, "")).filter((t) => t !== ""))];
}

function jsonSafe(v: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x)));
  } catch {
    return String(v);
  }
}

export function normaliseMeta(data: Record<string, unknown>): Metadata {
  const { tags, tag, kind, type, date, updated, created, title, ...rest } = data;
  const meta: Metadata = { tags: toTags(tags ?? tag), extra: jsonSafe(rest) as Record<string, unknown> };
  const k = typeof kind === "string" ? kind : typeof type === "string" ? type : undefined;
  if (k) meta.kind = k.trim().toLowerCase();
  const d = toDate(date) ?? toDate(updated) ?? toDate(created);
  if (d) meta.date = d;
  if (typeof title === "string") meta.title = title;
  return meta;
}

/**
 * Splits a YAML frontmatter block (`---` on the first line, closed by `---` or `...`) from the body.
 * Broken YAML never aborts anything: the block is dropped from the body, a warning is returned.
 */
export function parseFrontmatter(text: string): Parsed {
  const empty: Metadata = { tags: [], extra: {} };
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return { body: src, bodyLine: 1, meta: empty };
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!.trimEnd();
    if (l === "---" || l === "...") {
      close = i;
      break;
    }
  }
  if (close < 0) return { body: src, bodyLine: 1, meta: empty };
  const body = lines.slice(close + 1).join("\n");
  const bodyLine = close + 2;
  let data: unknown;
  try {
    data = parseYaml(lines.slice(1, close).join("\n"), { maxAliasCount: 100 });
  } catch (err) {
    const first = ((err as Error).message ?? "").split("\n")[0];
    return { body, bodyLine, meta: empty, warning: `frontmatter is not valid YAML (${first}); indexed without metadata` };
  }
  if (data === null || data === undefined) return { body, bodyLine, meta: empty };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { body, bodyLine, meta: empty, warning: "frontmatter is not a YAML mapping; indexed without metadata" };
  }
  return { body, bodyLine, meta: normaliseMeta(data as Record<string, unknown>) };
}
