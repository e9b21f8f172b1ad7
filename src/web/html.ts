/**
 * HTML made only from templates: every value put into one is escaped, unless it is HTML this
 * module made (`html`, `raw` of a constant). Stored text, file names and query words can never
 * become markup, a script or an attribute of the explorer's pages. Pure.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML text or a quoted attribute value; control characters (but tab and newline) and bidirectional overrides (text that would read as other text) dropped. */
export function escapeHtml(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(v: Part): string {
  if (v === null || v === undefined || v === false || v === true) return "";
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  return escapeHtml(String(v));
}

/** `html\`<p>${text}</p>\``: the literal parts kept, every value escaped (arrays joined, null/undefined/booleans nothing). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** A constant of this program's own as HTML (never stored or outside text). */
export const raw = (s: string): Html => new Html(s);

/**
 * A message written for a terminal, where `text in backticks` is code: as HTML, each such span a
 * `<code>` element and everything escaped (a lone backtick stays a backtick). Pure.
 */
export function codeSpans(text: string): Html {
  const parts = text.split(/`([^`\n]+)`/);
  return html`${parts.map((p, i) => (i % 2 === 1 ? html`<code>${p}</code>` : p))}`;
}
