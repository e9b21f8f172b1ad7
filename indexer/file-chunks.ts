/**
 * One file's text as chunks: content-hash ids, the redaction boundary on every field, events cut to
 * a chunk's cap, and a markdown file's frontmatter, tier and decision record.
 */
import { createHash } from "node:crypto";
import type { Config } from "../src/config/config.js";
import { recordFolders } from "../src/config/team-folder.js";
import { recordKeys } from "../src/memory/team-converge.js";
import { clean, type Clean } from "../src/redact/clean.cjs";
import { redact, redactLines } from "../src/redact/redact.cjs";
import type { NewChunk } from "../src/store/chunks.js";
import { withoutComments } from "../src/util/html-comments.js";
import { chunkMarkdown } from "./chunk.js";
import { maxChunkChars } from "./chunk-size.js";
import { decisionRecord, hasConflictMarkers } from "./decision-record.js";
import { eventText, parseEventLines } from "./events.js";
import { parseFrontmatter } from "./frontmatter.js";
import type { SourceFile } from "./sources.js";
import { tierOf } from "./tier.js";

export const sha = (...parts: string[]) => createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);

/**
 * Turns one file's text into chunks with content-hash ids, through the redaction boundary: every field
 * (text, heading, kind, tags, event metadata such as files, session and id, frontmatter keys and
 * values) comes out clean. Exported for tests.
 */
export function chunksOf(file: Pick<SourceFile, "path" | "rel" | "kind">, text: string, project: string, config: Config, warn: (m: string) => void, repo?: string): { chunks: Clean<NewChunk[]>; metadata: Clean<Record<string, unknown>>; tier: string } {
  const seen = new Map<string, number>();
  const idOf = (heading: string, body: string) => {
    const key = sha(heading, body);
    const n = seen.get(key) ?? 0; // identical passages in one file stay distinct
    seen.set(key, n + 1);
    return sha(project, file.path, heading, body, String(n));
  };
  if (file.kind === "events") {
    const maxEvent = maxChunkChars(config.index);
    const cut: number[] = [];
    const { events, skipped } = parseEventLines(text);
    if (skipped.length > 0) warn(`${file.path}: ${skipped.length} malformed event line(s) skipped (first: line ${skipped[0]!.line}, ${skipped[0]!.reason})`);
    // An event id is the event's identity (and its chunk id): a repeated one would break the unique chunk id.
    const ids = new Set<string>();
    const repeated: { line: number; id: string }[] = [];
    const kept = events.filter((ev) => {
      if (ev.id === undefined) return true;
      if (ids.has(ev.id)) {
        repeated.push({ line: ev.line, id: ev.id });
        return false;
      }
      ids.add(ev.id);
      return true;
    });
    if (repeated.length > 0) warn(`${file.path}: ${repeated.length} event line(s) repeating an earlier event id skipped (first: line ${repeated[0]!.line}, id ${repeated[0]!.id})`);
    const chunks = kept.map((ev): NewChunk => {
      const full = redact(eventText(ev)).text;
      if (full.length > maxEvent) cut.push(ev.line);
      const body = full.length > maxEvent ? `${full.slice(0, maxEvent - 16)} …[truncated]` : full; // a chunk's hard cap holds for events too
      return {
        id: ev.id ? sha(project, file.path, "event", ev.id) : idOf(ev.type, `${ev.time ?? ""}\0${body}`),
        kind: ev.type.toLowerCase(),
        tier: "warm",
        heading: ev.type,
        startLine: ev.line,
        endLine: ev.line,
        text: body,
        tags: [],
        date: ev.time ?? null,
        metadata: { source: "event", ...(ev.session ? { session: ev.session } : {}), files: ev.files, ...(ev.id ? { eventId: ev.id } : {}) },
      };
    });
    if (cut.length > 0) warn(`${file.path}: ${cut.length} event(s) longer than ${maxEvent} characters indexed truncated (first: line ${cut[0]}); split them to have all of it found`);
    return { chunks: clean(chunks), metadata: clean({ events: kept.length }), tier: "warm" };
  }
  const fm = parseFrontmatter(text);
  if (fm.warning) warn(`${file.path}: ${fm.warning}`);
  const { tier, layout, kind: slotKind, user } = tierOf(file.rel);
  const found = decisionRecord({ path: file.path, ...(fm.meta.kind ? { kind: fm.meta.kind } : {}), ...(fm.meta.date ? { date: fm.meta.date } : {}), extra: fm.meta.extra, body: fm.body, conflicted: hasConflictMarkers(text) }, recordFolders(config), repo);
  // A team record keeps the keys of what it states: a local memory that says the same is the same memory (src/memory/team-converge.ts).
  const keys = found?.team ? recordKeys(found.kind, found.title, redact(withoutComments(fm.body)).text) : [];
  const record = found && keys.length > 0 ? { ...found, keys } : found;
  const kind = record?.kind ?? fm.meta.kind ?? slotKind ?? layout;
  const date = fm.meta.date ?? record?.date ?? null;
  // The whole body is redacted before it is cut: a private key or a <private> block longer than a
  // chunk would otherwise be split into pieces that no rule recognises. Lines keep their numbers.
  // Redacted first: a `<private>` span whose markers sit in comments (`<!-- <private> -->`) is still a span.
  const chunks = chunkMarkdown(withoutComments(redactLines(fm.body)), config.index, fm.bodyLine).map((c): NewChunk => {
    const heading = redact(c.headingPath.join(" > ")).text;
    return {
      id: idOf(heading, c.text),
      kind,
      tier,
      heading,
      startLine: c.startLine,
      endLine: c.endLine,
      text: c.text,
      tags: fm.meta.tags,
      date,
      metadata: { layout, ...(user ? { user } : {}), ...(fm.meta.title ? { title: fm.meta.title } : {}), ...(record ? { record } : {}) },
    };
  });
  // `record` is the indexer's alone: a note's frontmatter that gives one is no record (nor the team's).
  const { record: _claimed, ...extra } = fm.meta.extra;
  const metadata = { ...extra, tags: fm.meta.tags, kind, ...(date ? { date } : {}), ...(record ? { record } : {}) };
  return { chunks: clean(chunks), metadata: clean(metadata), tier };
}
