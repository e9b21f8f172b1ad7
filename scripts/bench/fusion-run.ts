/**
 * The machinery bench:fusion shares between its LoCoMo and ADR parts, the same that bench:locomo
 * runs: folders indexed as projects into a data home (with a vector leg served by a loopback
 * Ollama, ./ollama-legs.ts, or none), then the UserPromptSubmit hook run as Claude Code runs it
 * (a new process per prompt, a warm daemon, a new session per prompt) and `mem query --batch`.
 * Every phase starts from its own copy of the indexed home: a memory shown is reinforced, which
 * would move the next phase's ranks.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { ask } from "../../src/daemon/client.cjs";
import { OllamaProvider } from "../../src/embed/ollama.js";
import { resolveProject } from "../../src/project/identity.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import type { Mode } from "../../src/retrieve/search.js";
import { additionalContext, BIN, run, runHook } from "./spawn.js";

/** A vector leg being served: where, and under which model name. */
export interface Served {
  url: string;
  model: string;
}

/**
 * Copies the markdown files under `from` into `to` (writable, outside any git repository), dated
 * an hour back: a file changed in the second it was indexed counts as changed since, and the
 * first `mem query` would re-index it in the background while the bench asks.
 */
export function copyMarkdown(from: string, to: string, at = new Date(Date.now() - 3_600_000)): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) copyMarkdown(join(from, e.name), join(to, e.name), at);
    else if (e.isFile() && e.name.endsWith(".md")) {
      writeFileSync(join(to, e.name), readFileSync(join(from, e.name)));
      utimesSync(join(to, e.name), at, at);
    }
  }
  utimesSync(to, at, at);
}

export interface Indexed {
  chunks: number;
  /** Chunks given a vector (0 without a leg). */
  embedded: number;
  /** Why the vector step was skipped, if it was. */
  skipped?: string;
}

/** Indexes each root as its own project into the data home `home` (its config.json `config`), with the leg's vectors when one is served. */
export async function indexInto(home: string, roots: readonly string[], leg: Served | undefined, config?: object): Promise<Indexed> {
  mkdirSync(home, { recursive: true });
  if (config) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  const db = openDb(join(home, "mem.sqlite"));
  let store: Promise<VectorStore> | undefined;
  const providers = leg ? [new OllamaProvider({ host: leg.url, model: leg.model, timeoutMs: 30_000, healthTimeoutMs: 5_000 })] : [];
  const out: Indexed = { chunks: 0, embedded: 0 };
  try {
    for (const root of roots) {
      const vectors = () => (store ??= VectorStore.open(join(home, "vectors")));
      const s = await indexPaths({ db, config: defaultConfig(join(home, "models")), providers, vectors }, { roots: [root], project: resolveProject(root), full: false });
      out.chunks += s.chunks.total;
      if (s.vector.status === "ok") out.embedded += s.vector.embedded;
      else if (leg) out.skipped = s.vector.reason;
    }
  } finally {
    (await store)?.close();
    db.close();
  }
  return out;
}

/** A fresh copy of an indexed data home, for one phase. */
export function copyHome(template: string, dest: string): string {
  cpSync(template, dest, { recursive: true });
  return dest;
}

/** The environment of `mem` processes on data home `home`, with or without the leg. */
export function memEnv(work: string, home: string, leg: Served | undefined): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: work,
    MEM_HOME: home,
    MEM_EMBED_ORDER: leg ? "ollama" : "none",
    ...(leg ? { MEM_OLLAMA_HOST: leg.url, MEM_OLLAMA_MODEL: leg.model } : {}),
  };
}

const payload = (prompt: string, cwd: string, session: string) => JSON.stringify({ session_id: session, transcript_path: "/nonexistent", cwd, hook_event_name: "UserPromptSubmit", prompt });

export interface Prompt {
  id: string;
  prompt: string;
  cwd: string;
}

/**
 * What the prompt hook injects for each prompt (id → additionalContext, "" for nothing), through a
 * warm daemon on `env`'s data home, which is stopped afterwards.
 */
export async function hookContexts(env: NodeJS.ProcessEnv, prompts: readonly Prompt[], warmCwd: string): Promise<{ contexts: Map<string, string>; late: number }> {
  const home = env.MEM_HOME!;
  await runHook("user-prompt-submit", payload("warm up the daemon please", warmCwd, "warm-0"), env);
  for (let i = 0; i < 100 && (await ask(home, { op: "ping" }, 300)).kind !== "reply"; i++) await new Promise((r) => setTimeout(r, 100));
  for (let i = 1; i <= 3; i++) await runHook("user-prompt-submit", payload("what did they talk about last time", warmCwd, `warm-${i}`), env);
  const out = new Map<string, string>();
  try {
    for (const p of prompts) out.set(p.id, additionalContext((await runHook("user-prompt-submit", payload(p.prompt, p.cwd, `fusion-${p.id}`), env)).stdout));
  } finally {
    await ask(home, { op: "stop" }, 2_000);
  }
  return { contexts: out, late: lateAnswers(home) };
}

/** Prompts the daemon answered past the hook's budget (they got nothing), from hooks.log. */
export function lateAnswers(home: string): number {
  const file = join(home, "hooks.log");
  if (!existsSync(file)) return 0;
  return readFileSync(file, "utf8").split("\n").filter((l) => /did not answer (the curl client )?within/.test(l)).length;
}

export interface Hit {
  text: string;
  path: string;
}

/** `mem query --batch --k 10 --mode <mode>` in `cwd`: id → its results in rank order (missing when the query failed). */
export async function queryBatch(env: NodeJS.ProcessEnv, cwd: string, items: readonly { id: string; text: string }[], mode: Mode): Promise<Map<string, Hit[]>> {
  const out = new Map<string, Hit[]>();
  if (items.length === 0) return out;
  const r = await run([BIN, "query", "--batch", "-", "--k", "10", "--mode", mode], items.map((q) => JSON.stringify(q)).join("\n"), env, process.execPath, cwd);
  for (const line of r.stdout.split("\n").filter(Boolean)) {
    const o = JSON.parse(line) as { id: string; results?: Hit[] };
    if (o.results) out.set(o.id, o.results.map((x) => ({ text: x.text, path: x.path })));
  }
  return out;
}
