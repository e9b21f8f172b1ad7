import { statSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { openApp } from "../app.js";
import type { Config } from "../config/config.js";
import { field, safeJson } from "../render/line.js";
import type { Db } from "../store/db.js";
import { budgetRows, kb, overBudget, type BudgetRow } from "../tiers/budgets.js";
import { projectFromArg } from "../project/scope.js";
import { knownProjects } from "../store/chunks.js";
import { TaskStore } from "../store/tasks.js";
import { VecState } from "../store/vec-state.js";
import { shownTime } from "../render/time.js";
import { EXIT, parse } from "./args.js";
import { ABSOLUTE_HELP, ABSOLUTE_OPTION } from "./times.js";
import type { Command } from "./command.js";

const usage = `Usage: mem status [--project P] [--absolute] [--json] [-q]

Per project: sources, chunks, vectors per table (model), the last index run, and each indexed
hot file (identity.md, state.md, references.md, users/<id>/profile.md) with its size against
its budget (tiers.budgets in config.json: identity 1.5 KB, state 2 KB, references 1 KB, profile
1 KB by default), with a warning for each one over it.

Options:
  --project P   only this project: a path, a stored id, or the name of a stored one
  --json        {"home", "projects": [{"project", "sources", "chunks", "vectors": [...], "lastRun",
                "hot": [{"path", "layout", "bytes", "budget", "over"}]}], "tables": [...], "warnings": [...]}
${ABSOLUTE_HELP}
  -q, --quiet   no warnings on stderr
  -h, --help    this help`;

interface ProjectStatus {
  project: string;
  sources: number;
  chunks: number;
  vectors: { table: string; model: string; provider: string; dims: number; count: number }[];
  lastRun: { startedAt: string; finishedAt: string | null; status: string } | null;
  hot: BudgetRow[];
  /** Tasks not completed nor dropped. */
  openTasks: number;
}

/** The project's indexed hot files, each measured as it is now (as last indexed when it cannot be read). */
function hotFiles(db: Db, project: string, budgets: Config["tiers"]["budgets"]): BudgetRow[] {
  const rows = db.prepare("SELECT path, size FROM sources WHERE project = ? AND tier = 'hot' AND kind = 'markdown' ORDER BY path").all(project) as { path: string; size: number }[];
  return budgetRows(
    rows.map((r) => {
      try {
        const st = statSync(r.path);
        return { path: r.path, bytes: st.isFile() ? st.size : r.size };
      } catch {
        return { path: r.path, bytes: r.size };
      }
    }),
    budgets,
  );
}

export const statusCommand: Command = {
  summary: "what is indexed",
  usage,
  async run(argv) {
    const { values } = parse(argv, { project: { type: "string" }, json: { type: "boolean" }, quiet: { type: "boolean", short: "q" }, ...ABSOLUTE_OPTION });
    const app = openApp();
    try {
      const state = new VecState(app.db);
      const tables = state.tables();
      const tasks = new TaskStore(app.db);
      const projects = values.project !== undefined ? [projectFromArg(app.db, values.project, process.cwd(), app.config.project.enclosing).id as string] : knownProjects(app.db); // indexed files, memories or tasks
      const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
      const out: ProjectStatus[] = projects.map((project) => {
        const run = app.db.prepare("SELECT started_at, finished_at, status FROM runs WHERE project = ? ORDER BY id DESC LIMIT 1").get(project) as
          | { started_at: number; finished_at: number | null; status: string }
          | undefined;
        return {
          project,
          sources: app.db.prepare("SELECT count(*) FROM sources WHERE project = ?").pluck().get(project) as number,
          chunks: app.db.prepare("SELECT count(*) FROM chunks WHERE project = ?").pluck().get(project) as number,
          vectors: tables.map((t) => ({ table: t.name, model: t.model, provider: t.provider, dims: t.dims, count: state.count(t.name, project) })).filter((v) => v.count > 0),
          lastRun: run ? { startedAt: iso(run.started_at)!, finishedAt: iso(run.finished_at), status: run.finished_at === null && run.status === "running" ? "interrupted or running" : run.status } : null,
          hot: hotFiles(app.db, project, app.config.tiers.budgets),
          openTasks: ((c) => c.fresh + c.stale)(tasks.openCounts(project, 0)),
        };
      });
      const rootOf = (project: string) => app.projectRoot(project);
      const shownPath = (path: string, project: string) => {
        const root = rootOf(project);
        const rel = root ? relative(root, path) : "";
        return field(rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path, 300);
      };
      const warnings = out.flatMap((p) => p.hot.filter((h) => h.over).map((h) => overBudget(h, shownPath(h.path, p.project))));
      if (!values.quiet) for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
      if (values.json) {
        process.stdout.write(`${safeJson({ home: app.paths.home, projects: out, tables: tables.map((t) => ({ ...t, count: state.count(t.name) })), warnings })}\n`);
        return EXIT.ok;
      }
      const lines = [`data home: ${app.paths.home}`];
      if (out.length === 0) lines.push("nothing indexed yet: run `mem index PATH`");
      for (const p of out) {
        lines.push("", `${field(p.project, 300)}`, `  sources ${p.sources}, chunks ${p.chunks}`);
        for (const v of p.vectors) lines.push(`  vectors ${v.count}/${p.chunks} in ${v.table} (${v.provider} ${v.model}, ${v.dims} dims)`);
        if (p.vectors.length === 0) lines.push("  vectors none (BM25 only)");
        if (p.lastRun) lines.push(`  last index ${shownTime(p.lastRun.startedAt, Date.now(), values.absolute === true)} (${p.lastRun.status})`);
        if (p.openTasks > 0) lines.push(`  open tasks ${p.openTasks}`);
        if (p.hot.length > 0) lines.push("  hot files (size / budget):");
        for (const h of p.hot) lines.push(`    ${shownPath(h.path, p.project)}  ${kb(h.bytes)} / ${kb(h.budget)}${h.over ? "  OVER BUDGET" : ""}`);
      }
      if (tables.length > 0) lines.push("", `vector tables: ${tables.map((t) => `${t.name} (${state.count(t.name)})`).join(", ")}`);
      process.stdout.write(`${lines.join("\n")}\n`);
      return EXIT.ok;
    } finally {
      await app.close();
    }
  },
};
