/**
 * What keeps the explorer the user's own: a random token in every address (another local user or
 * a web page in the browser cannot guess it), the Host header of a loopback name and this port
 * (a DNS rebinding page names its own host), and for a change, an Origin of this server when the
 * browser sends one. Pure but for the token file.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { replacePrivate } from "../util/private-file.cjs";

/** 32 random bytes, URL-safe: 43 characters. */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => randomBytes(32).toString("base64url");

/** The data home's token file: the same token across runs, so a bookmarked address keeps working. */
export const tokenPath = (home: string): string => join(home, "ui-token");

/** The token of `mem ui` in this data home: the stored one, or a new one stored (readable by the user only); `fresh` replaces it. */
export function uiToken(home: string, fresh = false): string {
  if (!fresh) {
    try {
      const t = readFileSync(tokenPath(home), "utf8").trim();
      if (TOKEN.test(t)) return t;
    } catch {
      // none yet, or unreadable: a new one
    }
  }
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
