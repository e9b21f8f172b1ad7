/**
 * `npm run bench:bm25-bound -- --store DIR`: what bounding the BM25 leg (src/retrieve/bm25-bound.ts)
 * does to the questions' figures where it bites. The LoCoMo and decision-record stores are too
 * small for it (under RANK_BUDGET chunks every match is ranked): here each one is copied from a
 * `npm run bench:fusion -- --legs none --keep` folder (DIR) and grown with distractor chunks in
 * the questions' own projects (SciFact's 5,183 abstracts and the prompts of ../shared's
 * transcripts), then every question is asked of the leg with and without the bound. Reported per
 * set and half (tuning, checking: scripts/bench/split.ts): the questions the bound took effect on,
 * the leg's top 50 identical or not, and R@1, R@5, MRR of the leg itself either way (LoCoMo: the
 * evidence turns; ADR: an answer record; ADR-2: the share of its answer records). Not a test.
 */
import Database from "better-sqlite3";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bm25Leg, boundedRows, RANK_BUDGET } from "../src/retrieve/bm25.js";
import { searchConcepts } from "../src/retrieve/fts-query.js";
import { openDb, type Db } from "../src/store/db.js";
import { adr2Dir, loadAdr2Questions } from "./bench/adr2.js";
import { adrDir, anyRanks, ADR_QUESTIONS, loadAdrQuestions, shareRanks } from "./bench/fusion-adr.js";
import { mean, reciprocalRank, type Ranks } from "./bench/fusion-metrics.js";
import { evidenceRecall, loadLocomo, locomoDir, transcriptPrompts, transcriptsDir, turnTags } from "./bench/locomo-data.js";
import { scifactDir } from "./bench/scifact.js";
import { halfOf } from "./bench/split.js";

const { values: a } = parseArgs({ options: { store: { type: "string" }, budget: { type: "string" } } });
const log = (s: string) => process.stdout.write(`${s}\n`);
if (!a.store || !existsSync(a.store)) {
  log("usage: npm run bench:bm25-bound -- --store DIR (a `npm run bench:fusion -- --legs none --keep` folder) [--budget N]");
  process.exit(2);
}
const budget = a.budget === undefined ? RANK_BUDGET : Number(a.budget);
const LIMIT = 50;

/** Distractor texts: SciFact's abstracts (title as heading) and real prompts of coding sessions. */
function distractors(): { heading: string; text: string }[] {
  const out: { heading: string; text: string }[] = [];
  const sf = scifactDir();
  if (sf) {
    for (const l of readFileSync(join(sf, "corpus.jsonl"), "utf8").split("\n")) {
      if (l.trim()) out.push((({ title, text }) => ({ heading: title, text }))(JSON.parse(l) as { title: string; text: string }));
    }
  }
  const tr = transcriptsDir();
  if (tr) for (const p of transcriptPrompts(tr)) out.push({ heading: "", text: p.slice(0, 4000) });
  return out;
}

/** A copy of a kept store (in a folder of its own) with the distractors in each of its projects. */
function grown(from: string, work: string, extra: readonly { heading: string; text: string }[]): Db {
  mkdirSync(work);
  const file = join(work, "mem.sqlite");
  const src = new Database(from, { readonly: true });
  src.prepare("VACUUM INTO ?").run(file);
  src.close();
  const db = openDb(file);
  const projects = db.prepare("SELECT DISTINCT project FROM chunks").pluck().all() as string[];
  const src2 = db.prepare("INSERT INTO sources (project, path, kind, size, mtime_ms, content_hash, indexed_at) VALUES (?, ?, 'markdown', 0, 0, '', 0)");
  const insert = db.prepare("INSERT INTO chunks (id, source_id, project, path, kind, heading, start_line, end_line, text, seq) VALUES (?, ?, ?, ?, 'markdown', ?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (const [p, project] of projects.entries()) {
      const path = join(project, "distractors.md");
      const sid = Number(src2.run(project, path).lastInsertRowid);
      for (const [i, d] of extra.entries()) insert.run(`distractor-${p}-${i}`, sid, project, path, d.heading, i, i, d.text, i);
    }
  })();
  return db;
}

interface Question {
  id: string;
  text: string;
  project: string;
  ranks: (hits: { text: string; path: string }[]) => Ranks;
}

interface Tally {
  n: number;
  bound: number;
  identical: number;
  full: Ranks[];
  bounded: Ranks[];
}

function ask(db: Db, qs: readonly Question[]): Map<string, Tally> {
  const rowOf = db.prepare("SELECT text, path FROM chunks WHERE id = ?");
  const hitsOf = (ids: string[]) => ids.map((id) => rowOf.get(id) as { text: string; path: string });
  const tallies = new Map<string, Tally>();
  const fresh = (): Tally => ({ n: 0, bound: 0, identical: 0, full: [], bounded: [] });
  for (const q of qs) {
    const full = bm25Leg(db, q.text, { projects: [q.project] }, LIMIT, undefined, undefined, Number.POSITIVE_INFINITY).map((h) => h.id);
    const bounded = bm25Leg(db, q.text, { projects: [q.project] }, LIMIT, undefined, undefined, budget).map((h) => h.id);
    const took = boundedRows(db, searchConcepts(q.text), Math.max(budget, 200), 200) !== undefined;
    for (const key of ["all", halfOf(q.id)]) {
      const t = tallies.get(key) ?? fresh();
      tallies.set(key, t);
      t.n++;
      if (took) t.bound++;
      if (full.join() === bounded.join()) t.identical++;
      t.full.push(q.ranks(hitsOf(full)));
      t.bounded.push(q.ranks(hitsOf(bounded)));
    }
  }
  return tallies;
}

const pct = (x: number) => (100 * x).toFixed(1);
function report(set: string, chunks: number, tallies: Map<string, Tally>): void {
  log(`\n${set}: ${chunks.toLocaleString("en")} chunks with the distractors; budget ${budget}`);
  log("| half | questions | bound took effect | top 50 identical | R@1 full / bounded | R@5 full / bounded | MRR full / bounded |");
  log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const key of ["all", "tuning", "checking"]) {
    const t = tallies.get(key);
    if (!t) continue;
    const m = (rs: Ranks[], k: keyof Ranks) => mean(rs.map((r) => r[k]));
    log(
      `| ${key} | ${t.n} | ${t.bound} | ${t.identical} | ${pct(m(t.full, "r1"))} / ${pct(m(t.bounded, "r1"))} | ${pct(m(t.full, "r5"))} / ${pct(m(t.bounded, "r5"))} | ${m(t.full, "rr").toFixed(3)} / ${m(t.bounded, "rr").toFixed(3)} |`,
    );
  }
}

const extra = distractors();
log(`mem bench:bm25-bound — ${new Date().toISOString()}; ${extra.length.toLocaleString("en")} distractor chunks per project; the leg's top ${LIMIT}`);
const work = mkdtempSync(join(tmpdir(), "mem-bench-bm25-bound-"));
try {
  const ldir = locomoDir();
  const lstore = join(a.store, "locomo-none", "home-bm25", "mem.sqlite");
  if (ldir && existsSync(lstore)) {
    const db = grown(lstore, join(work, "locomo"), extra);
    const projects = db.prepare("SELECT DISTINCT project FROM chunks").pluck().all() as string[];
    const { questions } = loadLocomo(ldir);
    const qs = questions.flatMap((q): Question[] => {
      const project = projects.find((p) => p.endsWith(`/${q.conv}`));
      if (!project) return [];
      const relevant = (h: { text: string }) => turnTags(h.text).some((x) => x.conv === q.conv && q.evidence.includes(x.turn));
      const ranks = (hits: { text: string }[]) => ({
        r1: evidenceRecall(q, hits.slice(0, 1).map((h) => h.text).join("\n")),
        r5: evidenceRecall(q, hits.slice(0, 5).map((h) => h.text).join("\n")),
        rr: reciprocalRank(hits, relevant),
      });
      return [{ id: q.qid, text: q.question, project, ranks }];
    });
    report("LoCoMo dev", db.prepare("SELECT count(*) FROM chunks").pluck().get() as number, ask(db, qs));
    db.close();
  } else log("(no LoCoMo store in DIR or no LoCoMo data: skipped)");
  for (const [set, key, dir] of [["ADR", "adr-none", adrDir()], ["ADR-2", "adr2-none", adr2Dir()]] as const) {
    const store = join(a.store, key, "home-bm25", "mem.sqlite");
    if (!dir || !existsSync(store)) {
      log(`(no ${set} store in DIR or no ${set} data: skipped)`);
      continue;
    }
    const db = grown(store, join(work, key), extra);
    const project = db.prepare("SELECT project FROM chunks LIMIT 1").pluck().get() as string;
    const qs = (set === "ADR" ? loadAdrQuestions(ADR_QUESTIONS, dir).questions : loadAdr2Questions(dir)).map(
      (q): Question => ({ id: q.id, text: q.question, project, ranks: (hits) => (set === "ADR" ? anyRanks(hits, q.answers) : shareRanks(hits, q.answers)) }),
    );
    report(set, db.prepare("SELECT count(*) FROM chunks").pluck().get() as number, ask(db, qs));
    db.close();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
