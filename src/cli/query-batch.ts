/**
 * `mem query --json` results and `mem query --batch`: one JSON object per line in, one answer
 * per line out; a malformed line or a failed query is answered with an error object and the batch
 * goes on.
 */
import { createReadStream, statSync, type Stats } from "node:fs";
import { createInterface } from "node:readline";
import { annotateResults, type Annotation } from "../anchor/annotate.js";
import { resultSources, type ResultSources } from "../team/view.js";
import { preview, previewStems } from "../inject/preview.js";
import { safeJson } from "../render/line.js";
import type { SearchContext, SearchResponse, SearchResult } from "../retrieve/search.js";
import type { ColdAnswer } from "../service/cold.js";
import { oneId } from "../store/one-id.js";
import { fileType } from "../util/read-regular.cjs";
import { EXIT } from "./args.js";
import { errorCode } from "./error-code.js";
import { coldJson } from "./query-cold.js";

/**
 * A result as printed by --json: its one id (src/store/one-id.ts), `preview` (the lines holding
 * the query's words, as the human output shows them), `stale` (the outdated/branch phrase, or
 * null) and `convergent` added.
 */
function annotated(r: SearchResult, a: Annotation | undefined, stems: readonly string[], s: ResultSources | undefined) {
  return { ...r, id: oneId(r.id), duplicates: r.duplicates.map(oneId), preview: preview(r, stems), stale: a?.stale?.text ?? null, convergent: a?.convergent === true, sources: s?.parts ?? [] };
}

/** Results as --json and --batch print them for the query `text` (staleness may run `git log`: `mem query` is off the prompt's path). */
export function jsonResults(ctx: SearchContext, results: SearchResult[], text: string) {
  // A local memory whose team record is among the results is left out: the record stands for it ("also local").
  const sources = resultSources(ctx.db, results, 8);
  const once = results.filter((r) => !sources.get(r.id)?.hidden);
  const notes = annotateResults(ctx.db, once, ctx.projectRoot, Date.now(), { git: true });
  const stems = previewStems(text);
  return once.map((r) => annotated(r, notes.get(r.id), stems, sources.get(r.id)));
}

async function* batchLines(source: string): AsyncGenerator<string> {
  if (source !== "-") {
    // A file or a pipe; a device (/dev/zero: one line without end) or a directory is refused with what it is.
    let st: Stats | undefined;
    try {
      st = statSync(source);
    } catch {
      // the open below says why
    }
    if (st && !st.isFile() && !st.isFIFO()) throw new Error(`cannot read batch file ${source}: not a regular file (${fileType(st)})`);
  }
  const input = source === "-" ? process.stdin : createReadStream(source);
  const opened = new Promise<void>((resolve, reject) => {
    input.once("error", reject);
    if (source === "-") resolve();
    else input.once("open", () => resolve());
  });
  await opened.catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot read batch file ${source}: ${err.code ?? err.message}`);
  });
  yield* createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

/** Answers every line of `source` (a file, a pipe or "-" for stdin) with `searchBoth`; the exit status. */
export async function runBatch(ctx: SearchContext, source: string, searchBoth: (text: string) => Promise<{ res: SearchResponse; cold: ColdAnswer | undefined }>, warn: (w: string) => void): Promise<number> {
  let n = 0;
  let bad = 0;
  let failed = 0;
  for await (const line of batchLines(source)) {
    n++;
    if (line.trim() === "") continue;
    let q: { id?: unknown; text?: unknown };
    try {
      const v = JSON.parse(line) as unknown;
      q = v !== null && typeof v === "object" && !Array.isArray(v) ? (v as typeof q) : {}; // null, a number, a list: malformed
    } catch {
      q = {};
    }
    const id = typeof q.id === "string" || typeof q.id === "number" ? String(q.id) : null;
    if (typeof q?.text !== "string" || q.text.trim() === "") {
      bad++;
      process.stdout.write(`${safeJson({ id, error: { code: "bad_line", message: `line ${n}: expected {"id": "...", "text": "..."}` } })}\n`);
      continue;
    }
    let out: string;
    try {
      const { res, cold } = await searchBoth(q.text);
      [...res.warnings, ...(cold?.warnings ?? [])].forEach(warn);
      out = safeJson({ id, results: jsonResults(ctx, res.results, q.text), ...(cold ? { cold: coldJson(cold, jsonResults(ctx, cold.results, q.text)) } : {}) });
    } catch (err) {
      // One query's failure is its line's answer; the batch goes on.
      failed++;
      const e = err as Error;
      out = safeJson({ id, error: { code: errorCode(e), message: `line ${n}: ${e.message}` } });
    }
    process.stdout.write(`${out}\n`);
  }
  if (bad > 0) process.stderr.write(`mem query --batch: ${bad} malformed line(s) answered with an error object\n`);
  if (failed > 0) process.stderr.write(`mem query --batch: ${failed} query(ies) failed, answered with an error object\n`);
  return bad + failed > 0 ? EXIT.failure : EXIT.ok;
}
