/** A real git repository and the hook payloads of a session working in it, for the anchor and convergence scenarios. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openDb, type Db } from "../../src/store/db.js";
import { git } from "../helpers/git.js";
import { cleanEnv, jsonOf, runMem } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

export function makeRepo(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "initial");
  return dir;
}

export interface Session {
  home: string;
  repo: string;
  id: string;
  transcript: string;
}

export function envOf(s: Session): NodeJS.ProcessEnv {
  return { HOME: s.home, MEM_HOME: join(s.home, "mem"), MEM_EMBED_ORDER: "none" };
}

/** PostToolUse of a tool call, spawned as Claude Code does. */
export async function toolUse(s: Session, id: string, tool: string, input: Record<string, unknown>, session = s.id): Promise<void> {
  const payload = { session_id: session, transcript_path: s.transcript, cwd: s.repo, hook_event_name: "PostToolUse", tool_name: tool, tool_use_id: id, tool_input: input, tool_response: { ok: true } };
  const r = await spawnHook("post-tool-use", JSON.stringify(payload), envOf(s));
  if (r.code !== 0) throw new Error(`post-tool-use: ${r.stderr}`);
}

export const edit = (s: Session, id: string, rel: string, session?: string) => toolUse(s, id, "Edit", { file_path: join(s.repo, rel), old_string: "a", new_string: "b" }, session);

/** Appends assistant text lines to the transcript (one per message, at the given times), then runs Stop, spawned. */
export async function say(s: Session, messages: { text: string; time: number }[], session = s.id): Promise<void> {
  const lines = messages.map((m, i) => JSON.stringify({ type: "assistant", sessionId: session, uuid: `u-${m.time}-${i}`, timestamp: new Date(m.time).toISOString(), message: { role: "assistant", content: [{ type: "text", text: m.text }] } }));
  writeFileSync(s.transcript, `${lines.join("\n")}\n`, { flag: "a" });
  const r = await spawnHook("stop", JSON.stringify({ session_id: session, transcript_path: s.transcript, cwd: s.repo, hook_event_name: "Stop", stop_hook_active: false }), envOf(s));
  if (r.code !== 0) throw new Error(`stop: ${r.stderr}`);
}

export interface QueryResult {
  id: string;
  kind: string;
  text: string;
  stale: string | null;
  convergent: boolean;
}

/** `mem query TEXT --json --mode bm25 [EXTRA]` in the repository. */
export async function query(s: Session, text: string, extra: string[] = []): Promise<QueryResult[]> {
  const r = await runMem(["query", text, "--json", "--mode", "bm25", "--k", "50", ...extra], { env: { ...cleanEnv(join(s.home, ".claude")), ...envOf(s) }, cwd: s.repo });
  if (r.code !== 0) throw new Error(`mem query: ${r.stderr}`);
  return jsonOf<{ results: QueryResult[] }>(r).results;
}

export function withDb<T>(s: Session, f: (db: Db) => T): T {
  const db = openDb(join(s.home, "mem", "mem.sqlite"));
  try {
    return f(db);
  } finally {
    db.close();
  }
}
