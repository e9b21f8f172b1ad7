/**
 * Pure merge / unmerge of mem's hooks into a parsed Claude Code settings object (HOOKS.md §1.2).
 * No I/O: the caller reads and writes files (files.ts). The settings' JSON types, checks and text
 * (parse, re-serialise) are in ./settings-json.ts.
 *
 * Only mem's own handlers are touched: those install wrote (marked `"_managed_by": "mem"`, or
 * exactly an older install's form; see ./ours.ts), wherever they are and whichever checkout or
 * node they name, which an install rewrites in place instead of duplicating. Everything else,
 * a user's handler that runs `mem hook …` included, is left exactly as it was, key order included.
 */
import { MEM_HOOKS, groupFor, markedHandlerFor, type HookTarget, type MemHook } from "./hooks.js";
import { isLookalike, memHookName, mentionedHookName } from "./ours.js";
import { checkTopLevel, describeType, isObject, sameJson, SettingsError, type Json, type JsonObject } from "./settings-json.js";

// ---------------------------------------------------------------------------------------------
// Finding our handlers (which are ours: ./ours.ts)

export interface FoundHook {
  event: string;
  name: string;
  matcher: Json | undefined;
  handler: JsonObject;
}

/** Every handler in a settings object for which `name` gives a name, in file order. */
function findHandlers(settings: unknown, name: (h: unknown) => string | undefined): FoundHook[] {
  const out: FoundHook[] = [];
  if (!isObject(settings) || !isObject(settings.hooks)) return out;
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const h of group.hooks) {
        const n = name(h);
        if (n !== undefined) out.push({ event, name: n, matcher: group.matcher, handler: h as JsonObject });
      }
    }
  }
  return out;
}

/** Every handler of ours in a settings object, in file order. */
export const findMemHooks = (settings: unknown): FoundHook[] => findHandlers(settings, memHookName);

/** The user's handlers that run one of mem's hooks (`mem hook stop` with an env prefix, a wrapper…): never touched by install or uninstall. */
export const findLookalikes = (settings: unknown): FoundHook[] => findHandlers(settings, (h) => (isLookalike(h) ? mentionedHookName(h) : undefined));

/**
 * One line about the look-alikes in `file`, or undefined: they are the user's and stay as they
 * are; one left from an older mem (or a hand-edited copy) runs beside mem's own hooks.
 */
export function lookalikeWarning(file: string, settings: unknown): string | undefined {
  const found = findLookalikes(settings);
  if (found.length === 0) return undefined;
  const where = [...new Set(found.map((f) => f.event))].join(", ");
  const one = found.length === 1;
  return `${file}: ${one ? "a handler" : `${found.length} handlers`} under ${where} ${one ? "runs" : "run"} \`mem hook …\` in a form mem install never wrote: left untouched; if ${one ? "it is" : "one is"} left from an older mem, delete ${one ? "it" : "those"} by hand (mem's own hooks would run too)`;
}

// ---------------------------------------------------------------------------------------------
// Merge and unmerge

export type InstallStatus = "installed" | "updated" | "already-installed";
export type UninstallStatus = "uninstalled" | "not-installed";

export interface MergeResult<S extends string> {
  /** A new object; the input is never modified. Equal (JSON text) to the input when `changed` is false. */
  settings: JsonObject;
  changed: boolean;
  status: S;
  /** install: the events our hooks are registered for; uninstall: the events they were removed from. */
  events: string[];
  /** Events where a handler of ours was added, rewritten in place (e.g. new paths), or removed. */
  added: string[];
  updated: string[];
  removed: string[];
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** `"*"`, `""` and no matcher all match everything (HOOKS.md §1.3). */
function matcherKey(m: unknown): string | null {
  if (m === undefined || m === "" || m === "*") return "";
  return typeof m === "string" ? m : null;
}

/**
 * Removes our handlers except those in `keep`; drops the matcher groups and event arrays that
 * this removal leaves empty (groups that were already empty stay). Returns the events touched.
 */
function removeOurs(hooks: JsonObject, keep: Set<unknown>): string[] {
  const touched: string[] = [];
  for (const event of Object.keys(hooks)) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    let removedHere = false;
    const nextGroups: Json[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        nextGroups.push(group);
        continue;
      }
      const kept = group.hooks.filter((h) => keep.has(h) || memHookName(h) === undefined);
      if (kept.length === group.hooks.length) {
        nextGroups.push(group);
        continue;
      }
      removedHere = true;
      if (kept.length > 0) {
        group.hooks = kept;
        nextGroups.push(group);
      }
    }
    if (!removedHere) continue;
    touched.push(event);
    if (nextGroups.length > 0) hooks[event] = nextGroups;
    else delete hooks[event];
  }
  return touched;
}

/**
 * Merges our hooks for `target` into `settings`. Idempotent: a second call returns `changed: false`.
 * A handler of ours already in the right event and matcher group is rewritten in place (new node or
 * checkout path) so its position is kept; our handlers anywhere else are removed; missing ones are
 * appended as a new matcher group at the end of the event's list.
 * @throws SettingsError when the settings (or `hooks`, or one of our event lists) has the wrong type.
 */
export function installHooks(settings: unknown, target: HookTarget, hooks: readonly MemHook[] = MEM_HOOKS): MergeResult<InstallStatus> {
  checkTopLevel(settings);
  const hadOurs = findMemHooks(settings).length > 0;
  for (const h of hooks) {
    const groups = isObject(settings.hooks) ? settings.hooks[h.event] : undefined;
    if (groups !== undefined && !Array.isArray(groups)) throw new SettingsError(`"hooks.${h.event}" must be an array of matcher groups, not ${describeType(groups)}`);
  }
  const out = clone(settings);
  const existing = isObject(out.hooks) ? out.hooks : undefined;
  const keep = new Set<unknown>();
  const missing: MemHook[] = [];
  const updated: string[] = [];
  for (const h of hooks) {
    let placed = false;
    const groups = existing?.[h.event];
    for (const group of Array.isArray(groups) ? groups : []) {
      if (placed) break;
      if (!isObject(group) || !Array.isArray(group.hooks) || matcherKey(group.matcher) !== matcherKey(h.matcher)) continue;
      const i = group.hooks.findIndex((x) => !keep.has(x) && memHookName(x) === h.name);
      if (i < 0) continue;
      const want = markedHandlerFor(h, target);
      if (!sameJson(group.hooks[i], want)) {
        group.hooks[i] = want as unknown as JsonObject;
        updated.push(h.event);
      }
      keep.add(group.hooks[i]);
      placed = true;
    }
    if (!placed) missing.push(h);
  }
  const removed = existing ? removeOurs(existing, keep) : [];
  const added: string[] = [];
  if (missing.length > 0) {
    const target_hooks = (out.hooks = existing ?? {});
    for (const h of missing) {
      const list = target_hooks[h.event];
      const group = groupFor(h, target, true) as unknown as JsonObject;
      target_hooks[h.event] = Array.isArray(list) ? [...list, group] : [group];
      added.push(h.event);
    }
  }
  const changed = JSON.stringify(out) !== JSON.stringify(settings);
  return {
    settings: changed ? out : clone(settings),
    changed,
    status: !changed ? "already-installed" : hadOurs ? "updated" : "installed",
    events: hooks.map((h) => h.event),
    added,
    updated,
    removed: removed.filter((e) => !added.includes(e) && !updated.includes(e)),
  };
}

/**
 * Removes every handler of ours, the matcher groups and events this leaves empty, and `hooks`
 * itself when we emptied it, unless the user's file held an empty `hooks` before mem's install
 * (`keepEmptyHooks`). Everything else is kept as it was.
 * @throws SettingsError when the settings or `hooks` has the wrong type.
 */
export function uninstallHooks(settings: unknown, keepEmptyHooks = false): MergeResult<UninstallStatus> {
  checkTopLevel(settings);
  const out = clone(settings);
  const removed = isObject(out.hooks) ? removeOurs(out.hooks, new Set()) : [];
  if (removed.length > 0 && !keepEmptyHooks && isObject(out.hooks) && Object.keys(out.hooks).length === 0) delete out.hooks;
  const changed = removed.length > 0;
  return { settings: out, changed, status: changed ? "uninstalled" : "not-installed", events: removed, added: [], updated: [], removed };
}
