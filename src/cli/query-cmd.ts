import { salienceConfig } from "../memory/salience.js";
import { field, safeJson } from "../render/line.js";
import { annotateResults, staleChunks } from "../anchor/annotate.js";
import { firstHealthy } from "../embed/chain.js";
import { refreshIfStale, type Freshness } from "../freshness/refresh.js";
import { openApp, type App } from "../app.js";
import { projectFromArg, searchScope, storedProjects } from "../project/scope.js";
import { gitChangedFiles } from "../project/in-play.js";
import type { Filters } from "../retrieve/filters.js";
import { search, type Mode, type SearchContext, type SearchOptions, type SearchResponse, type SearchResult } from "../retrieve/search.js";
import type { Config } from "../config/config.js";
import { coldSearch, type ColdAnswer } from "../service/cold.js";
import { killRunningGit } from "../cold/git-history.js";
import { EXIT, int, isoDate, oneOf, parse, UsageError } from "./args.js";
import { ABSOLUTE_OPTION } from "./times.js";
import { coldJson, coldText } from "./query-cold.js";
import { runOpen } from "./query-open.js";
import { jsonResults, runBatch } from "./query-batch.js";
import { resultSources } from "../team/view.js";
import { BOLD, fusionLine, human } from "./query-print.js";
import { previewStems } from "../inject/preview.js";
import type { Command } from "./command.js";
import { FUSION_METHODS, type FusionMethod } from "../retrieve/fusion.js";
import { sayNoModelNow, searchWarningLine } from "./vector-note.js";
import { modeRan, NO_MODEL_LINE } from "../retrieve/warnings.js";

const usage = `Usage: mem query "TEXT" [options]
       mem query --batch FILE|- [options]

Searches the current project's memory (the git top level of the working directory, else the
directory) plus user-global memory. Hybrid mode fuses BM25 and the vector leg, the vector leg
weighed by its calibrated weight: with weighted RRF or with the calibrated convex combination
of scores (--fusion, query.fusion; docs/ranking.md); with no embedding model it answers from
BM25 alone and says so once a day. With no daemon
watching, notes changed since they were indexed are re-indexed in the background (a note on
stderr says so; index.watch: false or MEM_WATCH=0 turns it off). Results are ranked by
relevance, then salience (decisions before raw tool events when relevance is close), and a
memory about a file git sees changed in this repository ranks a little higher (--explain shows
every factor; README: "How results are ranked"). Each result shows the lines that hold the
query's words, picked as the prompt hook picks them ("…" where lines are left out).

Options:
  --k N              results to return (default 10, max 1000)
  --mode MODE        hybrid | bm25 | vector (default hybrid)
  --fusion F         rrf | calibrated: how hybrid combines the legs (default: query.fusion,
                     itself "calibrated" unless config.json says otherwise)
  --project P        search project P (a path, a stored project id, or a project's directory name)
  --all-projects     search every project
  --kind K           only chunks of this kind (repeatable)
  --tag T            only chunks carrying tag T (repeatable; all must match)
  --path GLOB        only sources matching GLOB, relative to the project root or to a folder
                     indexed with \`mem index\` (e.g. "sessions/**" after \`mem index examples/memory\`)
  --since DATE       only chunks dated on/after DATE (YYYY-MM-DD)
  --until DATE       only chunks dated on/before DATE
  --cold             also search what the default search leaves out, ranked after its results:
                     the cold tier (notes under archive/, memories unused for long) and the
                     project's git history (commit messages and changed lines; bounded by
                     cold.gitTimeoutMs, cold.gitMaxCommits, cold.gitMaxBytes)
  --json             print {"query", "mode", "legs", "projects", "warnings", "results": [...]}
                     (each result's "preview": the lines shown, "text": the whole chunk)
                     (and "cold": {"results": [...], "git": {...}} with --cold)
  --absolute         show each result's whole date and time (UTC), not only its day
  --explain          show how each result's score is made (human output): each leg's rank and
                     score, the fused score, and the ranking formula's factors (salience,
                     possibly outdated, about a file in play)
  --batch FILE|-     read JSON lines {"id": "...", "text": "..."}; print one line per query:
                     {"id": "...", "results": [...]} (same result objects as --json); a
                     malformed line or a failed query: {"id", "error": {"code", "message"}}
  --open             open the query in the explorer (\`mem ui\`) instead: its search page with the
                     same filters, in the browser (when there is one) and its address on stdout
                     (with --json: {"url", "ui": "running"|"started", "pid", "opened"}); when no
                     \`mem ui\` runs for this data home, one is started in the background
                     (\`mem ui --no-open --port 0\`, its output in <home>/ui.log); stderr says which
  -q, --quiet        no warnings or notes on stderr (errors still)
  -h, --help         this help`;

interface Parsed {
  text: string | undefined;
  batch: string | undefined;
  json: boolean;
  explain: boolean;
  /** With --cold: the directory whose git history is searched (the current project's). */
  cold: { root: string | undefined } | undefined;
  /** The project's directory: memories about the files git sees changed there rank a little higher. */
  root: string | undefined;
  options: Omit<SearchOptions, "text">;
}

const OPTIONS = {
  k: { type: "string" },
  mode: { type: "string" },
  fusion: { type: "string" },
  project: { type: "string" },
  "all-projects": { type: "boolean" },
  kind: { type: "string", multiple: true },
  tag: { type: "string", multiple: true },
  path: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  json: { type: "boolean" },
  explain: { type: "boolean" },
  batch: { type: "string" },
  cold: { type: "boolean" },
  open: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  ...ABSOLUTE_OPTION,
} as const;

/** Checks the command line without touching the data home, so a usage error never creates state. */
function parseArgv(argv: string[]) {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.batch !== undefined && positionals.length > 0) throw new UsageError("give either query text or --batch, not both");
  if (values.batch === undefined && positionals.length === 0) throw new UsageError("missing query text");
  if (values.open && values.batch !== undefined) throw new UsageError("--open opens one query: give its text, not --batch");
  if (values.open && values.cold) throw new UsageError("--open and --cold do not go together: the explorer searches the cold tier (Tier: all), not git history; use --cold in the terminal");
  if (values.project !== undefined && values["all-projects"]) throw new UsageError("--project and --all-projects exclude each other");
  const text = positionals.length > 0 ? positionals.join(" ") : undefined;
  if (text !== undefined && text.trim() === "") throw new UsageError("query text is empty");
  const k = int(values.k, "k", 1, 1000);
  const mode = oneOf<Mode>(values.mode, "mode", ["hybrid", "bm25", "vector"]) ?? "hybrid";
  const fusion = oneOf<FusionMethod>(values.fusion, "fusion", FUSION_METHODS);
  const filters: Filters = {
    ...(values.kind ? { kinds: values.kind } : {}),
    ...(values.tag ? { tags: values.tag } : {}),
    ...(values.path ? { path: values.path } : {}),
    ...(values.since ? { since: isoDate(values.since, "since")! } : {}),
    ...(values.until ? { until: isoDate(values.until, "until")! } : {}),
  };
  return { values, text, k, mode, fusion, filters };
}

function resolveQuery(app: App, a: ReturnType<typeof parseArgv>): Parsed & { projects: string[] | undefined } {
  const q = app.config.query;
  const project = projectFromArg(app.db, a.values.project, process.cwd(), app.config.project.enclosing);
  const projects = a.values["all-projects"] ? undefined : searchScope(project, q.includeGlobal);
  return {
    text: a.text,
    batch: a.values.batch,
    json: a.values.json === true,
    explain: a.values.explain === true,
    cold: a.values.cold ? { root: project.root ?? app.projectRoot(project.id) } : undefined,
    root: project.root ?? app.projectRoot(project.id),
    projects,
    options: {
      k: a.k ?? q.k,
      mode: a.mode,
      filters: { ...a.filters, ...(projects ? { projects } : {}) },
      candidates: Math.max(q.candidates, a.k ?? 0),
      rrfK: q.rrfK,
      fusion: a.fusion ?? q.fusion,
      weights: q.weights,
      dedupeThreshold: q.dedupeThreshold,
      salience: { now: Date.now(), config: salienceConfig(app.config.salience), stale: (ids) => penalized(staleChunks(app.db, ids, app.projectRoot, Date.now(), { git: true })) },
    },
  };
}

/**
 * With no daemon watching, roots changed since they were indexed are re-indexed in the background
 * (this query answers from the index as it is, and says so on stderr). Never fails the query.
 */
function freshness(app: App, projects: string[] | undefined, quiet: boolean): { roots: string[]; status: NonNullable<Freshness["reindex"]> } | undefined {
  if (!app.config.index.watch) return undefined;
  try {
    const f = refreshIfStale(app.db, { home: app.paths.home, env: process.env, projects, now: Date.now(), chunks: app.config.index });
    if (!f.reindex) return undefined;
    const roots = [...new Set(f.stale.map((s) => s.path))];
    const what = f.reindex === "started" ? "re-indexing in the background" : "a re-index runs already";
    if (!quiet) process.stderr.write(`note: ${roots.map((r) => field(r, 200)).join(", ")} changed since last indexed; ${what}, so these results may not show the change yet\n`);
    return { roots, status: f.reindex };
  } catch (err) {
    process.stderr.write(`warning: checking whether the notes changed failed: ${(err as Error).message}\n`);
    return undefined;
  }
}

/** The ids whose flag carries the ranking penalty (deleted or changed, not merely another branch). */
const penalized = (flags: ReadonlyMap<string, { penalty: boolean }>) => new Set([...flags].filter(([, f]) => f.penalty).map(([id]) => id));

export const queryCommand: Command = {
  summary: "search memory",
  usage,
  async run(argv) {
    const args = parseArgv(argv);
    const app = openApp();
    try {
      const p = resolveQuery(app, args);
      if (args.values.open) {
        const project = projectFromArg(app.db, args.values.project, process.cwd(), app.config.project.enclosing).id;
        return await runOpen(app.paths.home, { text: p.text!, project, allProjects: args.values["all-projects"] === true, ...args.filters, mode: args.mode, ...(args.k !== undefined ? { k: args.k } : {}) }, { json: p.json, quiet: args.values.quiet === true });
      }
      let picked: ReturnType<SearchContext["pickProvider"]> | undefined;
      const ctx: SearchContext = {
        db: app.db,
        vectors: app.vectors,
        projectRoot: app.projectRoot,
        pickProvider: () => (picked ??= app.providers().then((ps) => firstHealthy(ps))),
      };
      const warned = new Set<string>();
      const quiet = args.values.quiet === true;
      const warn = (w: string) => {
        const line = searchWarningLine(app.config, w);
        if (line === undefined || warned.has(line)) return;
        warned.add(line);
        if (quiet) return;
        if (line === NO_MODEL_LINE) {
          if (sayNoModelNow(app.paths.home)) process.stderr.write(`note: ${line}\n`); // once a day per data home
        } else process.stderr.write(`warning: ${line}\n`);
      };
      app.configWarnings.forEach(warn);
      if (p.projects && !p.projects.some((id) => new Set<string>(storedProjects(app.db)).has(id))) {
        const known = storedProjects(app.db);
        warn(`nothing is indexed for project ${p.projects[0]}${known.length ? ` (indexed: ${known.slice(0, 5).join(", ")}${known.length > 5 ? ", …" : ""}); use --project or --all-projects` : "; run `mem index PATH` first"}`);
      }
      const fresh = freshness(app, p.projects, quiet);
      // git runs in a process group of its own (so a deadline kills all it started): Ctrl-C or a
      // kill of this command must take it down too, not leave it running to its deadline.
      if (p.cold) {
        for (const [sig, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
          process.once(sig, () => {
            killRunningGit();
            process.exit(code);
          });
        }
      }
      // The files in play: what git sees changed in the project (bounded; none outside a repository).
      if (p.root && p.options.salience && app.config.salience.inPlayBoost > 0) p.options.salience.inPlay = new Map((await gitChangedFiles(p.root)).map((f) => [f, "changed in git" as const]));
      if (p.batch !== undefined) return await runBatch(ctx, p.batch, (text) => searchBoth(ctx, p, text, app.config.cold), warn);
      const { res, cold } = await searchBoth(ctx, p, p.text!, app.config.cold);
      const warnings = [...res.warnings, ...(cold?.warnings ?? [])];
      warnings.forEach(warn);
      if (p.json) {
        process.stdout.write(`${safeJson({ query: p.text, mode: modeRan(res.legs), legs: res.legs, projects: p.projects ?? "all", vector: res.vector ?? null, fusion: res.fusion ?? null, warnings: jsonWarnings(app.config, warnings), reindex: fresh ? { roots: fresh.roots, status: fresh.status } : null, results: jsonResults(ctx, res.results, p.text!), ...(cold ? { cold: coldJson(cold, jsonResults(ctx, cold.results, p.text!)) } : {}) })}\n`);
      } else {
        // A local memory whose team record is among the results is shown once, as the record.
        const sources = resultSources(app.db, [...res.results, ...(cold?.results ?? [])], 4);
        const once = (rs: SearchResult[]) => rs.filter((r) => !sources.get(r.id)?.hidden);
        res.results = once(res.results);
        if (cold) cold.results = once(cold.results);
        const all = [...res.results, ...(cold?.results ?? [])];
        const notes = annotateResults(app.db, all, app.projectRoot, Date.now(), { git: true });
        // The words that matched in bold, on a terminal only (NO_COLOR turns it off).
        const mark = process.stdout.isTTY === true && !process.env.NO_COLOR ? BOLD : undefined;
        const shown = { stems: previewStems(p.text!), mark, absolute: args.values.absolute === true };
        const print = (r: SearchResult, i: number) => human(r, i, app.projectRoot(r.project), p.explain, salienceConfig(app.config.salience), notes.get(r.id), shown, sources.get(r.id)?.parts);
        const warm = res.results.length === 0 ? (cold ? "no matches in the warm tiers" : "no matches") : res.results.map(print).join("\n\n");
        const weighed = p.explain ? fusionLine(res.fusion) : undefined;
        process.stdout.write(`${weighed ? `${weighed}\n\n` : ""}${warm}\n${cold ? `\n${coldText(cold, res.results.length, print)}\n` : ""}`);
      }
      // Showing a result is not using it: nothing is reinforced here, so the same query gives the
      // same answer tomorrow (reinforcement comes from real use: a confirmation, a convergence).
      return EXIT.ok;
    } finally {
      await app.close();
    }
  },
};

/** The warm search and, with --cold, the cold one (git started first, so it runs while the searches do). */
async function searchBoth(ctx: SearchContext, p: Parsed, text: string, config: Config["cold"]): Promise<{ res: SearchResponse; cold: ColdAnswer | undefined }> {
  const pending = p.cold ? coldSearch(ctx, { ...p.options, text }, { root: p.cold.root, config }) : undefined;
  pending?.catch(() => undefined); // awaited below
  const res = await search(ctx, { ...p.options, text });
  return { res, cold: await pending };
}

/** `--json`'s warnings: each as every surface says it (the no-model line for the vector leg's long reason), each once; a BM25-only choice says nothing. */
export function jsonWarnings(config: Config, warnings: readonly string[]): string[] {
  return [...new Set(warnings.map((w) => searchWarningLine(config, w)).filter((w): w is string => w !== undefined))];
}
