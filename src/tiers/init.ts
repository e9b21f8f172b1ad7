import { lstatSync, mkdirSync, statSync, writeFileSync, type Stats } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Config } from "../config/config.js";
import { layoutDirs, templates } from "./templates.js";
import { userSlug } from "./user.js";

/**
 * `mem init`: the tiered layout under a directory (identity.md, state.md, references.md,
 * users/<id>/profile.md; reference/, sessions/, archive/). Nothing that exists is ever written:
 * each file is created with O_EXCL (a file, a directory or a link already there, even a dangling
 * one, is left alone), so running it again, or over a layout someone edited, changes nothing.
 */
export interface InitReport {
  /** The layout's directory (absolute). */
  dir: string;
  user: string;
  /** Paths relative to `dir`, directories ending in `/`, in the order they were made. */
  created: string[];
  /** What was there already and left alone. */
  kept: string[];
  /** What could not be made, and why (the rest is still made). */
  problems: { path: string; reason: string }[];
}

const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

export function initLayout(dirArg: string, user: string, budgets: Config["tiers"]["budgets"]): InitReport {
  if (userSlug(user) !== user) throw new Error(`not a user id: ${JSON.stringify(user.slice(0, 80))}`); // callers pass userSlug's output
  const dir = resolve(dirArg);
  const report: InitReport = { dir, user, created: [], kept: [], problems: [] };
  let st: Stats | undefined;
  try {
    st = statSync(dir);
  } catch (err) {
    if (code(err) !== "ENOENT") throw new Error(`${dir}: cannot read it (${code(err)})`);
  }
  if (st && !st.isDirectory()) throw new Error(`${dir} exists and is not a directory`);
  if (st) report.kept.push("./");
  else {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw new Error(`${dir}: cannot make it (${code(err)})`);
    }
    report.created.push("./");
  }
  const inside = (rel: string) => {
    const p = resolve(dir, rel);
    if (!p.startsWith(dir + sep)) throw new Error(`${rel} is not inside ${dir}`); // cannot happen with a userSlug id
    return p;
  };
  const blocked = new Set<string>();
  const parentBlocked = (rel: string) => {
    for (let d = dirname(rel); d !== "."; d = dirname(d)) if (blocked.has(d)) return d;
    return undefined;
  };
  for (const rel of layoutDirs(user)) {
    const p = inside(rel);
    const under = parentBlocked(rel);
    if (under) {
      blocked.add(rel);
      report.problems.push({ path: `${rel}/`, reason: `not made: ${under} is not a directory` });
      continue;
    }
    try {
      mkdirSync(p);
      report.created.push(`${rel}/`);
      continue;
    } catch (err) {
      if (code(err) !== "EEXIST") {
        blocked.add(rel);
        report.problems.push({ path: `${rel}/`, reason: `cannot make it (${code(err)})` });
        continue;
      }
    }
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory(); // a link to a directory is the user's choice: kept, used
    } catch {
      // a dangling link
    }
    if (isDir) report.kept.push(`${rel}/`);
    else {
      blocked.add(rel);
      report.problems.push({ path: `${rel}/`, reason: `exists and is not a directory (${lstatSync(p).isSymbolicLink() ? "a link" : "a file"}); left alone` });
    }
  }
  for (const [rel, text] of Object.entries(templates(user, budgets))) {
    const p = inside(rel);
    const under = parentBlocked(rel);
    if (under) {
      report.problems.push({ path: rel, reason: `not made: ${under} is not a directory` });
      continue;
    }
    try {
      writeFileSync(p, text, { flag: "wx" });
      report.created.push(rel);
    } catch (err) {
      if (code(err) === "EEXIST") report.kept.push(rel);
      else report.problems.push({ path: rel, reason: `cannot write it (${code(err)})` });
    }
  }
  return report;
}

/** A path of the report as the user typed the directory (relative to `cwd` when under it). */
export function shown(report: InitReport, rel: string, cwd: string): string {
  const full = rel === "./" ? report.dir : join(report.dir, rel);
  const r = relative(cwd, full);
  return (r === "" ? "." : r.startsWith("..") ? full : r) + (rel.endsWith("/") && rel !== "./" ? "/" : "");
}
