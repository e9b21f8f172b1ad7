/**
 * HTML comments (`<!-- … -->`) of a markdown text, taken out as a reader sees it rendered: not
 * inside fenced code (there it is code), to the end of the text when never closed (as CommonMark
 * renders it). Every line stays where it was: a comment's lines are left empty, so line numbers
 * after it hold. What `mem init`'s templates hint in comments is no memory, and text hidden from
 * the rendered note is not put before the model. Pure.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function withoutComments(text: string): string {
  if (!text.includes("<!--")) return text;
  const out: string[] = [];
  let inComment = false;
  let fence: string | undefined; // the opening fence's marker while inside fenced code
  for (const line of text.split("\n")) {
    if (!inComment) {
      const f = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (f !== undefined && f[0] === fence[0] && f.length >= fence.length && line.trim() === f) fence = undefined;
        out.push(line);
        continue;
      }
      if (f !== undefined) {
        fence = f;
        out.push(line);
        continue;
      }
    }
    let kept = "";
    let rest = line;
    for (;;) {
      if (inComment) {
        const end = rest.indexOf("-->");
        if (end < 0) break;
        rest = rest.slice(end + 3);
        inComment = false;
      }
      const start = rest.indexOf("<!--");
      if (start < 0) {
        kept += rest;
        break;
      }
      // A code span before it (`<!--` written in backticks) is code: kept whole, the search goes on after it.
      const code = codeSpanBefore(rest, start);
      if (code !== undefined) {
        kept += rest.slice(0, code);
        rest = rest.slice(code);
        continue;
      }
      kept += rest.slice(0, start);
      rest = rest.slice(start + 4);
      if (rest.startsWith(">")) rest = rest.slice(1); // `<!-->` and `<!--->` are whole (empty) comments
      else if (rest.startsWith("->")) rest = rest.slice(2);
      else inComment = true;
    }
    out.push(kept.trim() === "" ? "" : kept);
  }
  return out.join("\n");
}

/**
 * Where the first code span of `line` that opens before `at` ends (the index after its closing
 * backticks), when it does close on this line; undefined when none opens before `at`.
 */
function codeSpanBefore(line: string, at: number): number | undefined {
  const open = /`+/g;
  for (let m = open.exec(line); m !== null && m.index < at; m = open.exec(line)) {
    const ticks = m[0];
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`, "g");
    close.lastIndex = m.index + ticks.length;
    const end = close.exec(line);
    if (end) return end.index + ticks.length;
  }
  return undefined;
}
