/**
 * The second decision-record set (../shared/data/adr-2: 70 JabRef MADR records in `corpus/`, 60
 * developer questions in `queries.jsonl`), as bench:fusion's ADR part takes it. Its questions may
 * have several relevant records; its README scores R@k as the share of them in the first k
 * records (files, each once), MRR by the first of them.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { AdrQuestion } from "./fusion-adr.js";

export function adr2Dir(): string | undefined {
  const dir = process.env.MEM_ADR2_DIR ?? join(process.cwd(), "..", "shared", "data", "adr-2");
  return existsSync(join(dir, "queries.jsonl")) && existsSync(join(dir, "corpus")) ? dir : undefined;
}

/** The questions of queries.jsonl (throws on a malformed line); `answers` are record file names. */
export function loadAdr2Questions(dir: string): AdrQuestion[] {
  const lines = readFileSync(join(dir, "queries.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "");
  return lines.map((l, i) => {
    const q = JSON.parse(l) as { qid?: unknown; query?: unknown; relevant?: unknown; kind?: unknown };
    if (typeof q.qid !== "string" || typeof q.query !== "string" || !Array.isArray(q.relevant) || q.relevant.length === 0 || !q.relevant.every((r) => typeof r === "string")) {
      throw new Error(`${dir}/queries.jsonl line ${i + 1}: expected qid, query and relevant`);
    }
    return { id: q.qid, question: q.query, answers: (q.relevant as string[]).map((r) => basename(r)), paraphrase: q.kind === "paraphrase" || q.kind === "vocabulary", share: true, kind: typeof q.kind === "string" ? q.kind : undefined };
  });
}
