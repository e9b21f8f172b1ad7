import { createHash } from "node:crypto";
import { userInfo } from "node:os";

/**
 * Who "the current user" is for the tiered layout's `users/<id>/profile.md`, and the one spelling
 * of a user id that may become a directory name or appear in a template or a briefing title.
 */

/** A user id is at most this long. */
export const MAX_USER_CHARS = 64;

/**
 * The id a raw user name is written as: letters without their accents, lower case, digits, `.`,
 * `_` and `-`; any other run of characters becomes one `-`; no leading or trailing `.` or `-`
 * (so never `.`, `..` or a hidden name), at most 64 characters. A name with letters of other
 * scripts only ("用户") becomes `user-<12 hex of its sha256>`. Undefined when nothing usable is
 * left (empty, blank, punctuation only). So an id can neither leave the `users/` directory nor
 * carry markdown or markup into a template or the briefing. Pure.
 */
export function userSlug(raw: string): string | undefined {
  const folded = raw.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
  let s = folded
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  if (s.length > MAX_USER_CHARS) s = s.slice(0, MAX_USER_CHARS).replace(/[-.]+$/, "");
  if (s !== "" && /[a-z0-9]/.test(s)) return s;
  if (/[\p{L}\p{N}]/u.test(raw)) return `user-${createHash("sha256").update(raw.normalize("NFC")).digest("hex").slice(0, 12)}`;
  return undefined;
}

export type UserSource = "flag" | "MEM_USER" | "config" | "login" | "USER";

export interface CurrentUser {
  id: string;
  /** Where it came from: --user, $MEM_USER, tiers.user in config.json, the login name, $USER/$LOGNAME/$USERNAME. */
  source: UserSource;
  /** The name as given, when its id differs from it. */
  raw?: string;
}

function loginName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined; // no passwd entry (a container's arbitrary uid)
  }
}

/**
 * The current user, first usable of: `flag` (mem init --user), `$MEM_USER`, `tiers.user` from the
 * config, the login name (os.userInfo), `$USER`, `$LOGNAME`, `$USERNAME`. A candidate that is set
 * but unusable (punctuation only) is an error rather than silently someone else: undefined with
 * the reason. `login` is injectable for tests.
 */
export function currentUser(
  o: { flag?: string | undefined; env: NodeJS.ProcessEnv; configured: string; login?: () => string | undefined },
): { user: CurrentUser } | { error: string } {
  const candidates: [UserSource, string | undefined][] = [
    ["flag", o.flag],
    ["MEM_USER", o.env.MEM_USER],
    ["config", o.configured],
  ];
  for (const [source, raw] of candidates) {
    if (raw === undefined || raw === "") continue;
    const id = userSlug(raw);
    if (!id) return { error: `${source === "flag" ? "--user" : source === "config" ? "tiers.user" : "$MEM_USER"} ${JSON.stringify(raw.slice(0, 80))} has no letter or digit to make a user id of` };
    return { user: { id, source, ...(id !== raw ? { raw } : {}) } };
  }
  const fallbacks: [UserSource, string | undefined][] = [
    ["login", (o.login ?? loginName)()],
    ["USER", o.env.USER],
    ["USER", o.env.LOGNAME],
    ["USER", o.env.USERNAME],
  ];
  for (const [source, raw] of fallbacks) {
    const id = raw ? userSlug(raw) : undefined;
    if (id) return { user: { id, source, ...(id !== raw ? { raw: raw! } : {}) } };
  }
  return { error: "cannot tell who the current user is (no login name, $USER unset): give --user ID, set $MEM_USER, or set tiers.user in config.json" };
}

/** The current user's id, or undefined (the briefing then shows no profile). */
export function currentUserId(env: NodeJS.ProcessEnv, configured: string): string | undefined {
  const r = currentUser({ env, configured });
  return "user" in r ? r.user.id : undefined;
}
