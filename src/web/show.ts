/** Pieces of pages several views share: a result's text with the matched words marked, ids, ages, the project picker. */
import { ago } from "../brief/render.js";
import { markMatches } from "../inject/preview.js";
import type { Config } from "../config/config.js";
import { searchWarningLine } from "../retrieve/warnings.js";
import { oneId } from "../store/one-id.js";
import { escapeHtml, html, Html } from "./html.js";
import { href } from "./request.js";

const OPEN = "\uE000";
const CLOSE = "\uE001";

/** Text with the words of `stems` in <mark>, everything else escaped. */
export function marked(text: string, stems: readonly string[]): Html {
  const plain = text.replace(/[\uE000\uE001]/g, "");
  if (stems.length === 0) return new Html(escapeHtml(plain));
  const withMarks = markMatches(plain, stems, (w) => `${OPEN}${w}${CLOSE}`);
  return new Html(escapeHtml(withMarks).replaceAll(OPEN, "<mark>").replaceAll(CLOSE, "</mark>"));
}

/** A memory's or chunk's one id, linked to its page. */
export function idLink(base: string, id: string, project?: string): Html {
  const one = oneId(id);
  return html`<a class="id" href="${href(base, "/memory", { id: one, project })}">${one}</a>`;
}

/** An ISO time as "3 days ago", with the time itself on hover. */
export function age(iso: string | null | undefined, now: number): Html {
  if (!iso) return html``;
  return html`<time datetime="${iso}" title="${iso}">${ago(iso, now)}</time>`;
}

/** A `<select>` of `options` with `value` chosen; the first option may be the empty "any". */
export function choice(name: string, value: string, options: readonly (readonly [string, string])[]): Html {
  return html`<select name="${name}">${options.map(([v, label]) => html`<option value="${v}"${v === value ? html` selected` : ""}>${label}</option>`)}</select>`;
}

/** A search's warnings as a person reads them: the vector leg's long reason one short line with its fix, nothing when BM25 only is the user's choice. */
export function shownWarnings(config: Config, warnings: readonly string[]): string[] {
  return [...new Set(warnings.map((w) => searchWarningLine(config, w)).filter((w): w is string => w !== undefined))];
}
