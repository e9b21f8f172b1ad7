/**
 * The lines of the hot notes a briefing showed, by chunk, as the prompt's memories record what
 * they showed (fingerprints, src/store/line-print.ts): the session's first prompt then does not
 * put the same lines of `state.md` or `identity.md` before the model again. A line counts as
 * shown when the briefing holds it as the notes section renders it. Pure.
 */
import { linePrint } from "../store/line-print.js";
import { noteLine, type HotNote } from "./sections/notes.js";

export function shownHotLines(hot: readonly HotNote[], briefing: string, redact: (s: string) => string): Map<string, string[]> {
  const rendered = new Set(briefing.split("\n").map((l) => l.trimEnd()));
  const out = new Map<string, string[]>();
  for (const n of hot) {
    if (n.id === undefined) continue;
    const prints = n.text
      .split("\n")
      .filter((raw) => raw.trim() !== "" && rendered.has(`> ${noteLine(redact(raw))}`.trimEnd()))
      .map(linePrint);
    if (prints.length > 0) out.set(n.id, [...new Set(prints)]);
  }
  return out;
}
