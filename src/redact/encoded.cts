/**
 * URL-encoded text (`?cmd=mysql+-u+root+-pS3cret`, `%2Fv1%3Ftoken%3D…`): each encoded token is decoded (`+` as a
 * space, `%XX` sequences, twice at most for double encoding), the decoded text goes through the rules, and every
 * secret found is replaced in the encoded original, whose characters are mapped back from the decoded ones.
 */

/** Decoded text, and for each of its UTF-16 units the span `[from, to)` of the source it came from. */
interface Decoded {
  text: string;
  from: number[];
  to: number[];
}

const hex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isEscape = (s: string, i: number) => s.charCodeAt(i) === 37 && hex(s.charCodeAt(i + 1)) && hex(s.charCodeAt(i + 2));

export function urlDecode(s: string): Decoded {
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  const emit = (chars: string, a: number, b: number) => {
    text += chars;
    for (let k = 0; k < chars.length; k++) {
      from.push(a);
      to.push(b);
    }
  };
  let i = 0;
  while (i < s.length) {
    if (s[i] === "+") {
      emit(" ", i, i + 1);
      i++;
    } else if (isEscape(s, i) && Number.parseInt(s.slice(i + 1, i + 3), 16) < 0x80) {
      emit(String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 3), 16)), i, i + 3);
      i += 3;
    } else if (isEscape(s, i)) {
      // A run of non-ASCII bytes: one UTF-8 sequence (or several), mapped to the whole run.
      const start = i;
      const bytes: number[] = [];
      while (isEscape(s, i) && Number.parseInt(s.slice(i + 1, i + 3), 16) >= 0x80) {
        bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
        i += 3;
      }
      emit(Buffer.from(bytes).toString("utf8"), start, i);
    } else {
      emit(s[i]!, i, i + 1);
      i++;
    }
  }
  return { text, from, to };
}

/** Could `text` hold a URL-encoded token? (`%XX`, or a `+` in a value after `=`: `?cmd=mysql+-u+root`.) */
export const mayBeEncoded = (text: string) => /%[0-9A-Fa-f]{2}|=[^\s=&]*\+/.test(text);

const TOKEN = /[^\s"'<>`]+/g;

export type Found = (secret: string, kind: string) => void;
/** Redacts a decoded text, reporting each replaced substring of it (and its kind) to `found`. */
export type Inner = (decoded: string, found: Found, depth: number) => string;

/**
 * Redacts the URL-encoded tokens of `text` (already redacted as it is): returns the text with each secret found in
 * a decoded token replaced in place by `[REDACTED:<kind>]`. A decoded `<private>` tag drops its whole token.
 */
export function redactEncoded(text: string, inner: Inner, found: Found, depth: number): string {
  if (depth >= 2 || !mayBeEncoded(text)) return text;
  return text.replace(TOKEN, (token) => {
    if (!mayBeEncoded(token)) return token;
    const d = urlDecode(token);
    if (d.text === token) return token;
    if (/<\/?private[\s>]/i.test(d.text)) {
      found(token, "private");
      return "";
    }
    const spans: [number, number, string][] = [];
    inner(d.text, (secret, kind) => {
      if (secret === "") return;
      for (let at = d.text.indexOf(secret); at >= 0; at = d.text.indexOf(secret, at + secret.length)) {
        spans.push([d.from[at]!, d.to[at + secret.length - 1]!, kind]);
      }
    }, depth + 1);
    if (spans.length === 0) return token;
    spans.sort((a, b) => a[0] - b[0]);
    const merged: [number, number, string][] = [];
    for (const span of spans) {
      const prev = merged.at(-1);
      if (prev && span[0] < prev[1]) prev[1] = Math.max(prev[1], span[1]);
      else merged.push([...span]);
    }
    let out = "";
    let last = 0;
    for (const [a, b, kind] of merged) {
      found(token.slice(a, b), kind);
      out += `${token.slice(last, a)}[REDACTED:${kind}]`;
      last = b;
    }
    return out + token.slice(last);
  });
}
