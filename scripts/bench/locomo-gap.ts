/**
 * How much of the LoCoMo evidence a lexical search cannot see: the evidence turns that share no
 * content word (stemmed, stop words and the speakers' names aside) with their question. BM25 can
 * only reach such a turn through the lines around it in the same chunk; a model can match it by
 * meaning ("kids" for "children", "taekwondo" for "martial arts"). Pure but for reading files.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { porter } from "../../src/inject/porter.js";
import { queryTerms } from "../../src/retrieve/fts-query.js";
import type { LocomoQuestion } from "./locomo-data.js";

const TURN = /^- \[(conv-\d+) (D\d+:\d+)\] ([^:\n]{1,40}): (.*)$/;

/** Each turn's speaker and text, by `conv-XX Ds:t`, from the conversations' markdown files. */
export function locomoTurns(dir: string, convs: readonly string[]): Map<string, { speaker: string; text: string }> {
  const turns = new Map<string, { speaker: string; text: string }>();
  for (const c of convs) {
    const mem = join(dir, c, "memory");
    for (const f of readdirSync(mem).sort()) {
      if (!f.endsWith(".md") || !statSync(join(mem, f)).isFile()) continue;
      for (const line of readFileSync(join(mem, f), "utf8").split("\n")) {
        const m = TURN.exec(line);
        if (m) turns.set(`${m[1]} ${m[2]}`, { speaker: m[3]!, text: m[4]! });
      }
    }
  }
  return turns;
}

const stems = (s: string) => new Set((s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(porter));

/** Per category (and 0 for all): evidence turns found in the files, and those sharing no content stem with their question. */
export function lexicalGap(questions: readonly LocomoQuestion[], turns: ReadonlyMap<string, { speaker: string; text: string }>): Map<number, { turns: number; unseen: number }> {
  const names = new Set<string>();
  for (const t of turns.values()) for (const s of stems(t.speaker)) names.add(s);
  const out = new Map<number, { turns: number; unseen: number }>();
  const bump = (cat: number, unseen: boolean) => {
    const x = out.get(cat) ?? { turns: 0, unseen: 0 };
    x.turns++;
    if (unseen) x.unseen++;
    out.set(cat, x);
  };
  for (const q of questions) {
    const asked = queryTerms(q.question).map(porter).filter((t) => !names.has(t));
    for (const e of q.evidence) {
      const t = turns.get(`${q.conv} ${e}`);
      if (!t) continue;
      const said = stems(t.text);
      const unseen = !asked.some((w) => said.has(w));
      bump(q.category, unseen);
      bump(0, unseen);
    }
  }
  return out;
}
