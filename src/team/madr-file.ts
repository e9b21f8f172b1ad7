/**
 * A shared memory as a MADR 4.0 file (docs/team-memory.md): the frontmatter (status, date,
 * decision-makers, kind, mem-id, files, source), a `# title` heading and the memory's text. Every
 * value is one line and YAML-quoted here, so nothing a memory says (a newline, a quote, a `---`)
 * can end the frontmatter or add a key. Redaction is the caller's (src/team/share.ts): what comes
 * in here is clean. Pure.
 */
import { parse as parseYaml } from "yaml";
import { parseFrontmatter } from "../../indexer/frontmatter.js";

/** Kinds a memory may be shared as: explicit or derived statements, never tool events, prompts or tasks. */
export const SHAREABLE_KINDS: readonly string[] = ["decision", "rejected", "learned", "preference", "note"];

export const MAX_SLUG = 60;
export const MAX_TITLE = 100;
export const MAX_SOURCE = 200;

/** The MADR status a memory's kind is shared with: a rejected approach is a rejected record, the rest accepted (the kind says what it is). */
export function statusOf(kind: string): "accepted" | "rejected" {
  return kind === "rejected" ? "rejected" : "accepted";
}

/** Line breaks and runs of spaces as one space, trimmed. */
export function oneLine(s: string): string {
  return s.replace(/[\s\u0085]+/g, " ").trim();
}

/** `s` cut to at most `max` characters, at a word when one ends near, with `…`. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The title: the text's first non-empty line, its first sentence, without list or heading marks, at most MAX_TITLE characters. */
export function titleOf(text: string): string {
  const first = text.split(/\r?\n|\r/).map((l) => l.replace(/^\s*(?:[#>*+-]+\s+|\d+[.)]\s+)*/, "").trim()).find((l) => l !== "") ?? "";
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(first)?.[1] ?? first;
  const t = clip(oneLine(sentence.length >= 12 ? sentence : first), MAX_TITLE).replace(/(?<!\.)\.$/, "");
  return t === "" ? "Shared memory" : t;
}

/** Names a decision folder keeps for something else (indexer/decision-record.ts NOT_RECORDS, the tombstones), or a system reserves. */
const RESERVED = /^(readme|index|template|adr-template|_template|toc|summary|forgotten|con|prn|aux|nul|com\d|lpt\d)$/;

/** The file name's stem: the title's ASCII words, lower case, `-` joined, at most MAX_SLUG characters. */
export function slugOf(title: string): string {
  const words = title.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  let slug = "";
  for (const w of words) {
    const next = slug === "" ? w : `${slug}-${w}`;
    if (next.length > MAX_SLUG) {
      if (slug === "") slug = w.slice(0, MAX_SLUG);
      break;
    }
    slug = next;
  }
  if (slug === "") return "memory";
  return RESERVED.test(slug) ? `${slug}-memory` : slug;
}

/**
 * The file a memory goes to: the one already holding its mem-id, else `<slug>.md`, or
 * `<slug>-2.md`, `-3`… when that name is taken (by another memory's file, or any file). `taken`
 * is the folder's names, lower case.
 */
export function fileNameFor(slug: string, memId: string, byMemId: ReadonlyMap<string, string>, taken: ReadonlySet<string>): string {
  const had = byMemId.get(memId);
  if (had !== undefined) return had;
  for (let n = 1; ; n++) {
    const name = `${slug}${n === 1 ? "" : `-${n}`}.md`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** A YAML double-quoted scalar of one line: quotes, backslashes and every control or line-separating character escaped. */
export function yamlString(s: string): string {
  const wellFormed = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  const body = wellFormed.replace(/[\\"\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => (c === "\\" ? "\\\\" : c === '"' ? '\\"' : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
  return `"${body}"`;
}

export interface MadrInput {
  kind: string;
  /** YYYY-MM-DD. */
  date: string;
  /** "Name <email>", or a user name. */
  author: string;
  memId: string;
  /** Repository-relative, `/`-separated. */
  files: readonly string[];
  /** The provenance line ("session 3f2a… 2026-11-28: …"); empty for none. */
  source: string;
  title: string;
  text: string;
}

/** The file's content. Pure. */
export function renderMadr(m: MadrInput): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(m.date) ? m.date : "1970-01-01";
  const lines = ["---", `status: ${statusOf(m.kind)}`, `date: ${date}`, `decision-makers: ${yamlString(oneLine(m.author))}`, `kind: ${/^[a-z][a-z-]{0,39}$/.test(m.kind) ? m.kind : yamlString(oneLine(m.kind))}`, `mem-id: ${yamlString(oneLine(m.memId))}`];
  const files = m.files.map(oneLine).filter((f) => f !== "");
  if (files.length > 0) lines.push(`files: [${files.map(yamlString).join(", ")}]`);
  const source = clip(oneLine(m.source), MAX_SOURCE);
  if (source !== "") lines.push(`source: ${yamlString(source)}`);
  const text = m.text.replace(/\r\n?/g, "\n").trim();
  lines.push("---", `# ${clip(oneLine(m.title), MAX_TITLE) || "Shared memory"}`, "", text, "");
  return lines.join("\n");
}

/**
 * The `mem-id` a file's frontmatter gives, if any (a string of at most 200 characters): only its
 * own line is parsed (a folder of hundreds of records is read at SessionStart), unless the
 * frontmatter writes it in another form (a block scalar, a flow mapping). Pure.
 */
export function memIdIn(content: string): string | undefined {
  if (!content.startsWith("---") || !content.includes("mem-id")) return undefined;
  const lines = content.split(/\r?\n/, 200);
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  const own = end < 0 ? undefined : lines.slice(1, end).find((l) => /^mem-id:[ \t]/.test(l));
  let v: unknown;
  if (own !== undefined && !/^mem-id:[ \t]*[|>&*!]/.test(own)) v = scalarOf(own.slice(own.indexOf(":") + 1).trim());
  else v = end < 0 ? undefined : parseFrontmatter(content).meta.extra["mem-id"];
  const id = typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "";
  return id !== "" && id.length <= 200 && !/[\u0000-\u001f\u007f]/.test(id) ? id : undefined;
}

/** A one-line YAML scalar's value: the usual forms read here (the yaml parser costs far more), any other by the parser. */
function scalarOf(raw: string): unknown {
  const dq = /^"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(raw);
  if (dq) {
    try {
      return JSON.parse(`"${dq[1]}"`) as string;
    } catch {
      // a YAML-only escape (\x41, \N): the parser's
    }
  }
  const sq = /^'((?:[^']|'')*)'\s*(?:#.*)?$/.exec(raw);
  if (sq) return sq[1]!.replaceAll("''", "'");
  const plain = raw.replace(/\s+#.*$/, "");
  if (/^[\w.:/@+-][^:#'"[\]{},]*$/.test(plain) && !/:\s/.test(plain)) return plain.trim();
  try {
    return (parseYaml(`k: ${raw}`) as Record<string, unknown> | null)?.k;
  } catch {
    return undefined;
  }
}
