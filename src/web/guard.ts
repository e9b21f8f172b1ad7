/**
 * What keeps the explorer the user's own: a random token in every address (another local user or
 * a web page in the browser cannot guess it), the Host header of a loopback name and this port
 * (a DNS rebinding page names its own host), and for a change, an Origin of this server when the
 * browser sends one. Pure but for the token file.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { replacePrivate } from "../util/private-file.cjs";
import { readPrivate } from "../util/private-place.cjs";

/** 32 random bytes, URL-safe: 43 characters. */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => randomBytes(32).toString("base64url");

/** The data home's token file: the same token across runs, so a bookmarked address keeps working. */
export const tokenPath = (home: string): string => join(home, "ui-token");

/** The stored token, or undefined when there is none (nothing is created): a file of the user's only, never read through a link. */
export function storedToken(home: string): string | undefined {
  const r = readPrivate(tokenPath(home), 1024);
  const t = r.ok ? r.data.toString("utf8").trim() : "";
  return TOKEN.test(t) ? t : undefined;
}

/** The token of `mem ui` in this data home: the stored one, or a new one stored (readable by the user only); `fresh` replaces it. */
export function uiToken(home: string, fresh = false): string {
  const stored = fresh ? undefined : storedToken(home);
  if (stored !== undefined) return stored;
  const t = newToken();
  replacePrivate(tokenPath(home), `${t}\n`);
  return t;
}

/** Whether `given` is the token, in time that does not depend on where they differ. */
export function tokenMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Whether a Host header names this server: a loopback name and this port (left out on port 80, as browsers do). */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.some((n) => h === `${n}:${port}` || (port === 80 && h === n));
}

/** Whether a change may come from where the browser says it does: no Origin (not a browser's cross-site form), or this server's own. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  return LOOPBACK_NAMES.some((n) => o === `http://${n}:${port}` || (port === 80 && o === `http://${n}`));
}

/** Splits `/TOKEN/rest` into the token given and the rest (`/` at least). */
export function splitPath(pathname: string): { token: string; rest: string } {
  const m = /^\/([^/]*)(\/.*)?$/.exec(pathname);
  return { token: m?.[1] ?? "", rest: m?.[2] ?? "/" };
}

/** How long an opening link works (ms): the browser follows it at once. */
export const OPEN_LINK_MS = 60_000;

/**
 * An address that opens `path` (`/search?q=…`) without holding the token: what the private page
 * handed to the browser's opener leads to (./open-page.ts; never the opener's command line, which
 * any local user may read). Signed with the token, it works once, within OPEN_LINK_MS, and only
 * redirects to the page.
 */
export function openLink(token: string, port: number, path: string, now: number): string {
  const exp = now + OPEN_LINK_MS;
  const q = new URLSearchParams({ path, exp: String(exp), sig: openSignature(token, path, exp) });
  return `http://127.0.0.1:${port}/open?${q.toString()}`;
}

const openSignature = (token: string, path: string, exp: number) => createHmac("sha256", token).update(`${exp}\n${path}`).digest("base64url");

/**
 * The page an opening link leads to, or why it does not: a bad signature, expired, a time too far
 * ahead, a path that is not one of the explorer's, or `used` (it works once).
 */
export function checkOpenLink(token: string, q: URLSearchParams, now: number, used: Set<string>): { path: string } | { refused: string } {
  const path = q.get("path") ?? "";
  const exp = Number(q.get("exp"));
  const sig = q.get("sig") ?? "";
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return { refused: "not a page of the explorer" };
  if (!Number.isSafeInteger(exp) || !tokenMatches(sig, openSignature(token, path, exp))) return { refused: "this opening link is not one of this explorer's" };
  if (exp < now || exp > now + 2 * OPEN_LINK_MS) return { refused: "this opening link has expired: run the command again, or open the address it printed" };
  if (used.has(sig)) return { refused: "this opening link was used already: open the address the command printed" };
  used.add(sig);
  return { path };
}
