import { accessSync, constants, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openApp, type App } from "../app.js";
import { checkFtsIntegrity } from "../store/chunks.js";
import { VecState } from "../store/vec-state.js";
import { ensurePrivateDir } from "../util/private-dir.cjs";
import { hookChecks } from "./doctor-hooks.js";
import { EXIT, parse } from "./args.js";
import type { Command } from "./main.js";

const usage = `Usage: mem doctor [--json]

Checks the data home, SQLite + FTS5, LanceDB tables, each embedding provider and mem's hooks
in the Claude Code settings files (user, project and local scope, seen from here), and says how
to fix what is wrong. Exit 1 when something needs fixing (an unreachable provider is a warning:
search still works from BM25).

Options:
  --json       {"ok", "checks": [{"name", "status": "ok"|"warn"|"error", "detail", "fix"?}]}
  -h, --help   this help`;

export interface Check {
  name: string;
  status: "ok" | "warn" | "error";
  detail: string;
  fix?: string;
}

function homeCheck(app: App): Check {
  try {
    ensurePrivateDir(app.paths.home);
    accessSync(app.paths.home, constants.W_OK);
    const probe = join(app.paths.home, `.doctor-${process.pid}`);
    writeFileSync(probe, "ok");
    rmSync(probe);
    const mode = statSync(app.paths.home).mode & 0o777;
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      return { name: "data home", status: "warn", detail: `${app.paths.home} is open to other users (mode ${mode.toString(8)}), and it holds what was captured from your sessions`, fix: `chmod 700 ${app.paths.home}` };
    }
    return { name: "data home", status: "ok", detail: app.paths.home };
  } catch (err) {
    return { name: "data home", status: "error", detail: `${app.paths.home}: ${(err as Error).message}`, fix: "make it writable, or point MEM_HOME elsewhere" };
  }
}

function sqliteChecks(app: App): Check[] {
  const checks: Check[] = [];
  try {
    const quick = app.db.pragma("quick_check", { simple: true });
    const mode = app.db.pragma("journal_mode", { simple: true });
    checks.push(quick === "ok" ? { name: "sqlite", status: "ok", detail: `${app.paths.sqlite} (journal ${mode})` } : { name: "sqlite", status: "error", detail: String(quick), fix: "restore from backup, or delete the file and run `mem index` again" });
  } catch (err) {
    checks.push({ name: "sqlite", status: "error", detail: (err as Error).message, fix: "delete the database file and run `mem index` again" });
  }
  try {
    checkFtsIntegrity(app.db);
    const n = app.db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    checks.push({ name: "fts5", status: "ok", detail: `BM25 index consistent (${n} chunks)` });
  } catch (err) {
    checks.push({ name: "fts5", status: "error", detail: (err as Error).message, fix: "run `mem index --full` to rebuild the text index" });
  }
  return checks;
}

async function lanceChecks(app: App): Promise<Check[]> {
  const state = new VecState(app.db);
  const tables = state.tables();
  let store;
  try {
    store = await app.vectors();
  } catch (err) {
    return [{ name: "lancedb", status: "error", detail: `cannot open ${app.paths.lance}: ${(err as Error).message}`, fix: "check the directory's permissions; `mem index --full` rebuilds it" }];
  }
  if (tables.length === 0) return [{ name: "lancedb", status: "ok", detail: `${app.paths.lance} (no vector tables yet)` }];
  const checks: Check[] = [];
  for (const t of tables) {
    const expected = state.count(t.name);
    const name = `lancedb ${t.name}`;
    try {
      if (!(await store.has(t.name))) {
        checks.push({ name, status: expected > 0 ? "error" : "warn", detail: `table is missing (${expected} vectors recorded)`, fix: "run `mem index` in any indexed project: it rebuilds the table with every project's vectors" });
        continue;
      }
      const count = await store.count(t.name);
      await store.search(t.name, new Float32Array(t.dims).fill(1 / Math.sqrt(t.dims)), undefined, 1);
      checks.push(
        count === expected
          ? { name, status: "ok", detail: `${count} vectors, ${t.provider} ${t.model}, ${t.dims} dims` }
          : { name, status: "warn", detail: `${count} rows, ${expected} recorded: out of sync (an interrupted run?)`, fix: "run `mem index` to reconcile" },
      );
    } catch (err) {
      checks.push({ name, status: "error", detail: `table is unreadable: ${(err as Error).message.split("\n")[0]}`, fix: "run `mem index --full` in any indexed project: it rebuilds the table with every project's vectors" });
    }
  }
  return checks;
}

async function providerChecks(app: App): Promise<Check[]> {
  const providers = await app.providers();
  if (providers.length === 0) return [{ name: "embedding", status: "warn", detail: "no provider configured: BM25 only", fix: 'set embedding.order in config.json, e.g. ["ollama", "transformers"]' }];
  const checks: Check[] = [];
  for (const p of providers) {
    const h = await p.health();
    checks.push(h.ok ? { name: `${p.name}`, status: "ok", detail: `${p.model}, ${h.dims} dims${h.detail ? ` (${h.detail})` : ""}` } : { name: p.name, status: "warn", detail: h.reason, ...(h.fix ? { fix: h.fix } : {}) });
  }
  if (!checks.some((c) => c.status === "ok")) checks.push({ name: "embedding", status: "warn", detail: "no provider is usable: indexing builds BM25 only and queries answer from BM25", fix: "fix one of the providers above" });
  return checks;
}

export const doctorCommand: Command = {
  summary: "check the installation",
  usage,
  async run(argv) {
    const { values } = parse(argv, { json: { type: "boolean" } });
    const app = openApp(process.env, { tolerateConfigErrors: true });
    try {
      const checks: Check[] = [homeCheck(app)];
      if (app.configError) checks.push({ name: "config", status: "error", detail: `${app.configError} (the checks below use the defaults)`, fix: `fix or remove ${app.paths.config}` });
      checks.push(...app.configWarnings.map((w): Check => ({ name: "config", status: "warn", detail: w, fix: `edit ${app.paths.config}` })));
      checks.push(...sqliteChecks(app), ...(await lanceChecks(app)), ...(await providerChecks(app)), ...hookChecks({ env: process.env, cwd: process.cwd() }));
      const ok = !checks.some((c) => c.status === "error");
      if (values.json) process.stdout.write(`${JSON.stringify({ ok, checks })}\n`);
      else {
        const mark = { ok: "ok  ", warn: "warn", error: "FAIL" } as const;
        for (const c of checks) process.stdout.write(`[${mark[c.status]}] ${c.name}: ${c.detail}${c.fix ? `\n       fix: ${c.fix}` : ""}\n`);
      }
      return ok ? EXIT.ok : EXIT.failure;
    } finally {
      await app.close();
    }
  },
};
