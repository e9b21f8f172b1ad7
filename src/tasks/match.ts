/**
 * The matching rule for a reworded task: when a session writes a task under a session-local id
 * the registry does not know yet (a new TodoWrite item, whose id is a hash of its wording; a
 * TaskCreate; a `[MEMORY: task]` tag), is it one of the project's open tasks, reworded? Pure.
 *
 * 1. A task's words: its content, redaction markers (`[REDACTED:github-token]`) out, lowercased
 *    and cut at anything that is not a letter or a digit,
 *    stop words out ("the", "for", "a", …), each word crudely stemmed (a plural `s`/`es`, then an
 *    `ing`/`ed` ending, then a final `e`: "Writes", "writing" and "write" are all "writ").
 * 2. Two wordings are the same task when the Jaccard similarity of their word sets (shared words
 *    over all words) is at least MATCH_THRESHOLD (0.6). So "Write the README" matches "Write
 *    README for install" (2 of 3 words), but "Fix the login bug" does not match "Fix the logout
 *    bug" (2 of 4), and a short task does not swallow a long one that merely contains it.
 *    A wording without words (only stop words or punctuation) matches only the same text.
 *    Two wordings that differ by one word swapped for one other word are two tasks, however
 *    alike the rest: "Add metrics for cache hit rate" / "… miss rate", "review batch 1" / "… 2"
 *    (in the real transcripts every such pair is two tasks; merging them would close one task
 *    when the other is done, while a reworded task kept twice only stays open once too often).
 * 3. Candidates are the project's open tasks (the 500 most recently updated), except those the same session holds under another
 *    live local id of the same kind (two items of one TodoWrite list, two TaskCreate tasks, two
 *    tags of one session are two tasks, however alike).
 * 4. Among the candidates, the task this very session-local id already refers to (task_refs) wins
 *    whatever the wording (a TaskUpdate may rename its task); then the best score at or above the
 *    threshold; then the newest (latest updatedAt, then highest id).
 */

export const MATCH_THRESHOLD = 0.6;

const STOP = new Set(
  ("a an the and or but nor of to for in on at by with from into onto about as so than then that this these those " +
    "is are was were be been being it its it's we our us you your i me my they them their he she his her " +
    "all any some each every no not do does did done can could should would will shall may might must " +
    "up out off over via per also just still again there here what which who whom when where why how").split(" "),
);

/** What redaction leaves in place of a secret: not a word of the task (two secrets are not one task). */
const REDACTED = /\[REDACTED:[^\]\s]*\]/g;

/** A crude stem: enough that "tests"/"test", "fixes"/"fixed"/"fixing"/"fix", "write"/"writing" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && /(?:sh|ch|x|ss|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ied")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Words of wordings seen lately (a capture compares one wording with hundreds of open tasks). */
const seen = new Map<string, ReadonlySet<string>>();
const SEEN_MAX = 4_096;

/** The content words of a task's wording, stemmed. */
export function taskWords(text: string): ReadonlySet<string> {
  let words = seen.get(text);
  if (!words) {
    if (seen.size >= SEEN_MAX) seen.delete(seen.keys().next().value!);
    seen.set(text, (words = wordsOf(text)));
  }
  return words;
}

function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.replace(REDACTED, " ").toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw === "" || STOP.has(raw)) continue;
    out.add(stem(raw));
  }
  return out;
}

const bare = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

/** Jaccard similarity of two wordings' words, 0..1 (wordings without words: 1 when the same text, else 0). */
export function similarity(a: string, b: string): number {
  return similarityOf(taskWords(a), a, b);
}

/** `similarity(a, b)` with `a`'s words already found. */
function similarityOf(x: ReadonlySet<string>, a: string, b: string): number {
  const y = taskWords(b);
  if (x.size === 0 || y.size === 0) return x.size === 0 && y.size === 0 && bare(a) === bare(b) ? 1 : 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared);
}

export interface MatchCandidate {
  id: number;
  content: string;
  /** ms; the newer wins a tie. */
  updatedAt: number;
  /** The session-local id being matched already refers to this task. */
  referenced?: boolean;
  /** The same session holds this task under another local id that is still live. */
  heldElsewhere?: boolean;
}

/** The open task `content` is (see the rule above), or undefined: a new task. */
export function matchTask(content: string, candidates: readonly MatchCandidate[]): { id: number; score: number } | undefined {
  const usable = candidates.filter((c) => !c.heldElsewhere);
  const ref = usable.find((c) => c.referenced);
  if (ref) return { id: ref.id, score: similarity(content, ref.content) };
  const words = taskWords(content);
  let best: { c: MatchCandidate; score: number } | undefined;
  for (const c of usable) {
    const score = similarityOf(words, content, c.content);
    if (score < MATCH_THRESHOLD || swapsOneWord(words, taskWords(c.content))) continue;
    if (!best || score > best.score || (score === best.score && (c.updatedAt > best.c.updatedAt || (c.updatedAt === best.c.updatedAt && c.id > best.c.id)))) {
      best = { c, score };
    }
  }
  return best ? { id: best.c.id, score: best.score } : undefined;
}

/** Whether `y` is `x` with exactly one word replaced by exactly one other word. */
export function swapsOneWord(x: ReadonlySet<string>, y: ReadonlySet<string>): boolean {
  if (x.size !== y.size) return false;
  let missing = 0;
  for (const w of x) if (!y.has(w) && ++missing > 1) return false;
  return missing === 1;
}
