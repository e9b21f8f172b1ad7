/**
 * The redaction boundary. Everything mem keeps (SQLite rows and FTS5, LanceDB rows, files in the data
 * home) is written through a store method whose parameters have the type `Clean<T>`, and this module is
 * the only place that makes one: a value becomes Clean by passing through `clean`, which redacts every
 * string inside it, object keys included, removes `<private>` spans and cuts nesting at a fixed depth.
 * Text that skipped redaction does not compile as a store argument; test/redact/boundary.test.ts keeps
 * SQL writes inside src/store and the brand from being forged elsewhere. Values read back from a store
 * are Clean already, so passing them on (a chunk's project into a vector row) needs no second pass.
 * CommonJS: the hook entry's log uses it too.
 */
import { redact, redactDeep } from "./redact.cjs";

declare const CLEAN: unique symbol;
/** A value that went through `clean` (or was read from a store that only holds such values). */
export type Clean<T> = T & { readonly [CLEAN]: true };

/** Nesting kept by `clean`; deeper subtrees become a marker string. */
export const MAX_CLEAN_DEPTH = 64;

/** Redacts a string. */
export function cleanText(text: string): Clean<string> {
  return redact(text).text as Clean<string>;
}

/** A hex digest (a content hash, an id derived from one) holds no secret: branded without a pass of the rules. */
export function cleanHash(hex: string): Clean<string> {
  if (!/^[0-9a-f]{8,128}$/.test(hex)) return cleanText(hex);
  return hex as Clean<string>;
}

/** Redacts every string in a JSON-like value (keys too; a whole value under a secret-named key). */
export function clean<T>(value: T): Clean<T> {
  if (typeof value === "string") return cleanText(value) as unknown as Clean<T>;
  return redactDeep(value, { keys: true, maxDepth: MAX_CLEAN_DEPTH }).value as Clean<T>;
}

/** Values a store reads back were clean when written. Only src/store may use this. */
export function asStored<T>(value: T): Clean<T> {
  return value as Clean<T>;
}

/** `T` with every string, list and object field required to be Clean already (numbers and flags as they are). */
export type CleanFields<T> = {
  [K in keyof T]: T[K] extends string
    ? Clean<string>
    : T[K] extends string | null
      ? Clean<string> | null
      : T[K] extends number | boolean | null | undefined
        ? T[K]
        : T[K] extends readonly (infer E)[]
          ? Clean<T[K]> | readonly Clean<E>[]
          : Clean<T[K]>;
};

/** A row a store reads back, each field clean. Only src/store may use this. */
export function asStoredRow<T>(row: T): CleanFields<T> {
  return row as unknown as CleanFields<T>;
}

/** An object built only of clean parts is clean: no second pass over text that was redacted already. */
export function fromClean<T>(parts: CleanFields<T>): Clean<T> {
  return parts as unknown as Clean<T>;
}

/** Two clean objects merged (`b`'s fields over `a`'s) are clean: no field is joined to another. */
export function mergeClean<A extends object, B extends object>(a: Clean<A>, b: Clean<B>): Clean<A & B> {
  return { ...a, ...b } as Clean<A & B>;
}

/**
 * Redacts, then cuts to at most `max` characters, without ever cutting a secret in two first: a long
 * text is cut at a whitespace (no token spans one) well past `max`, redacted, then cut to length.
 */
export function cleanClip(text: string, max: number): Clean<string> {
  let t = text;
  const room = max * 4 + 4_096;
  if (t.length > room) {
    let at = room;
    while (at > max && !/\s/.test(t[at]!)) at--;
    t = t.slice(0, at);
  }
  const out = cleanText(t);
  return (out.length > max ? `${out.slice(0, max - 1)}…` : out) as Clean<string>;
}
