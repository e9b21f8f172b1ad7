/**
 * Cold search, for every adapter (`mem query --cold`, the MCP search's `cold`, the daemon's
 * socket `search` with `cold`): what the warm search leaves out. Two sources, searched side by
 * side:
 *
 * - the cold tier: chunks whose tier is "cold" (markdown under `archive/`, and memories a
 *   maintenance job moved there for want of use), by the same hybrid search as the warm one with
 *   the same filters, restricted to that tier;
 * - the project's git history (src/cold/git-history.ts): commit messages and the lines commits
 *   added or removed, bounded in commits, bytes and time.
 *
 * Cold results rank after every warm result: the cold tier's first (by their score), then the
 * commits (by how many query words they hold, then the newest). Never on a hook's path: the
 * prompt's memories search the warm tiers only and run no git.
 */
import { VECTOR_LEG_SKIPPED } from "../retrieve/warnings.js";
import type { Config } from "../config/config.js";
import { searchGitHistory, type ColdCommit, type GitStatus } from "../cold/git-history.js";
import { search, type SearchContext, type SearchOptions, type SearchResult } from "../retrieve/search.js";

export interface ColdGit {
  /** `skipped`: not searched by choice (no project directory, or filters commits cannot meet). */
  status: GitStatus | "skipped";
  /** The directory whose history was searched. */
  root: string | null;
  /** The words git looked for. */
  terms: string[];
  shallow: boolean;
  commits: ColdCommit[];
}

export interface ColdAnswer {
  /** Cold-tier chunks, best first, at most k. */
  results: SearchResult[];
  git: ColdGit;
  warnings: string[];
}

export interface ColdOptions {
  /** The project's directory; undefined: its history is not searched. */
  root: string | undefined;
  config: Config["cold"];
  /** The git executable (tests); default `git` on PATH. */
  git?: string;
}

/** `opts` are the warm search's: the same text, k, mode and filters. */
export async function coldSearch(ctx: SearchContext, opts: SearchOptions, o: ColdOptions): Promise<ColdAnswer> {
  const f = opts.filters;
  const skip = (why: string) => ({ status: "skipped" as const, root: o.root ?? null, terms: [], shallow: false, commits: [], warning: `git history not searched: ${why}` });
  const history =
    o.root === undefined
      ? Promise.resolve(skip("the project has no directory"))
      : f.kinds?.length || f.tags?.length
        ? Promise.resolve(skip("commits have no kinds or tags to filter on"))
        : searchGitHistory({
            root: o.root,
            text: opts.text,
            maxCommits: Math.min(o.config.gitMaxCommits, Math.max(opts.k, 1) * 5),
            timeoutMs: o.config.gitTimeoutMs,
            maxBytes: o.config.gitMaxBytes,
            ...(f.since ? { since: f.since } : {}),
            ...(f.until ? { until: f.until } : {}),
            ...(f.path ? { path: f.path } : {}),
            ...(o.git ? { git: o.git } : {}),
          }).then((h) => ({ ...h, root: o.root ?? null, warning: undefined }));
  const tier = await search(ctx, { ...opts, filters: { ...f, tier: "cold" }, checkCoverage: false });
  const h = await history;
  const warnings = [...tier.warnings.filter((w) => !w.startsWith(VECTOR_LEG_SKIPPED)), ...("warnings" in h ? h.warnings : []), ...(h.warning ? [h.warning] : [])];
  return {
    results: tier.results,
    git: { status: h.status, root: h.root, terms: h.terms, shallow: h.shallow, commits: h.commits.slice(0, opts.k) },
    warnings,
  };
}
