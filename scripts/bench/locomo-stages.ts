/**
 * Where the evidence of a LoCoMo question is lost between the prompt's search and the text the hook
 * injects: the same search and selection the daemon runs (promptCandidates, formatInjection), in
 * process, step by step. Each stage's figure is the mean recall of the evidence turns over the
 * text that stage keeps (full chunk texts until the evidence is chosen).
 */
import { openApp } from "../../src/app.js";
import { formatInjection, passesFloor } from "../../src/inject/format.js";
import { contentStems } from "../../src/inject/terms.js";
import { promptCandidates } from "../../src/inject/for-prompt.js";
import { redactLines } from "../../src/redact/redact.cjs";
import type { SearchResult } from "../../src/retrieve/search.js";
import { evidenceRecall, type LocomoQuestion } from "./locomo-data.js";

export interface StageReport {
  questions: number;
  /** Stage label → mean recall (0 to 1). */
  recall: [string, number][];
  /** Mean results the search returns, pass the floor, and have lines injected; mean items injected. */
  results: number;
  passing: number;
  shown: number;
  items: number;
  /** Questions whose results all fail the floor (while the search found some). */
  floorEmpty: number;
  /** Mean milliseconds of the floor and the evidence selection (formatInjection) per question. */
  selectMs: number;
}

const joined = (rs: readonly SearchResult[]) => rs.map((r) => r.text).join("\n");
/** The ranked texts one after the other, cut at `chars`: what a plain ranking shows in that room. */
const cutAt = (rs: readonly SearchResult[], chars: number) => joined(rs).slice(0, chars);

export async function lossStages(env: NodeJS.ProcessEnv, questions: readonly LocomoQuestion[], roots: ReadonlyMap<string, string>): Promise<StageReport> {
  const app = openApp(env);
  const labels = [
    "search results (k 10, full chunks)",
    "  of which the first 5",
    "ranked chunks cut at the budget (no floor, no cap, no windows)",
    "results that pass the floor",
    "floor-passing chunks cut at the budget",
    "evidence chosen within twice the budget",
    "injected (evidence chosen within the budget): what the model sees",
  ];
  const sums = labels.map(() => 0);
  let results = 0;
  let passing = 0;
  let shownChunks = 0;
  let items = 0;
  let floorEmpty = 0;
  let selectMs = 0;
  try {
    const ctx = { db: app.db, config: app.config, vectors: app.vectors, pickProvider: async () => ({ unhealthy: [] }), projectRoot: app.projectRoot };
    const o = app.config.inject;
    const red = redactLines;
    for (const q of questions) {
      const found = await promptCandidates(ctx, { prompt: q.question, cwd: roots.get(q.conv)!, session: `stages-${q.qid}` }, "bm25");
      const rs = found?.results ?? [];
      const terms = found?.terms ?? [];
      const stems = contentStems(terms);
      const pass = rs.filter((r) => passesFloor(r, stems, o));
      const twice = formatInjection(rs, terms, { ...o, budgetChars: 2 * o.budgetChars }, red)?.text ?? "";
      const t = performance.now();
      const shown = formatInjection(rs, terms, o, red);
      selectMs += performance.now() - t;
      const texts = [joined(rs), joined(rs.slice(0, 5)), cutAt(rs, o.budgetChars), joined(pass), cutAt(pass, o.budgetChars), twice, shown?.text ?? ""];
      texts.forEach((t, i) => (sums[i]! += evidenceRecall(q, t)));
      results += rs.length;
      passing += pass.length;
      shownChunks += shown?.ids.length ?? 0;
      items += shown ? shown.text.split("\n").filter((l) => l.startsWith("- [")).length : 0;
      if (rs.length > 0 && pass.length === 0) floorEmpty++;
    }
  } finally {
    await app.close();
  }
  const n = questions.length;
  return { questions: n, recall: labels.map((l, i) => [l, sums[i]! / n]), results: results / n, passing: passing / n, shown: shownChunks / n, items: items / n, floorEmpty, selectMs: selectMs / n };
}

export function printStages(s: StageReport, log: (s: string) => void): void {
  log(" | stage | evidence recall |\n |---|---|");
  for (const [label, r] of s.recall) log(` | ${label} | ${(100 * r).toFixed(1)} |`);
  log(` per question: ${s.results.toFixed(1)} results, ${s.passing.toFixed(1)} pass the floor, lines of ${s.shown.toFixed(1)} of them injected in ${s.items.toFixed(1)} items; the floor leaves nothing in ${s.floorEmpty} of ${s.questions} questions; floor and selection ${s.selectMs.toFixed(2)} ms a question`);
}
