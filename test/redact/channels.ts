/**
 * The hook and index channels of the secret corpora (every-channel.test.ts, third-channels.test.ts): a corpus goes
 * through every channel mem captures or indexes (tool calls and their outputs, Edit and Write contents, TaskCreate,
 * TaskUpdate, TodoWrite, prompts, transcripts, [MEMORY:] tags, keyword decisions, subagents, compaction
 * snapshots, session ends, markdown bodies, frontmatter, file and directory names, event logs with their
 * metadata, session ids and paths, the hook log), then every byte of the data home and every hook output is
 * scanned for each secret. Returns the leaks and, per shape, whether it was stored or shown.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { resolveProject } from "../../src/project/identity.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { B64, type Case, rand } from "../helpers/secrets.js";
import { hook } from "../hooks/helpers.js";

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const line = (type: "user" | "assistant", session: string, content: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type, sessionId: session, timestamp: "2026-11-22T10:00:00Z", message: { role: type, content }, ...extra });

export interface ChannelScan {
  leaks: string[];
  /** Shapes with a secret somewhere in the data home. */ stored: Set<string>;
  /** Shapes with a secret in a hook's output. */ shown: Set<string>;
}

export async function hookChannels(cases: Case[], tmp: string): Promise<ChannelScan> {

  const token = `ghp_${rand(36)}`;
  const home = join(tmp, "home");
  // A project whose directory name, and a notes folder whose name, hold a secret.
  const project = join(tmp, `proj-${token}`);
  const notes = join(project, "notes");
  mkdirSync(join(notes, `dir-${token}`), { recursive: true });
  mkdirSync(join(notes, "events"), { recursive: true });
  const env = { MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" };
  const outputs: string[] = [];
  const run = async (name: string, payload: unknown) => outputs.push((await hook(name, payload, env)).stdout);
  const session = `s-${token}`; // a session id holding a secret
  const base = { session_id: session, cwd: project, transcript_path: join(tmp, `t-${token}.jsonl`) };
  const post = (i: number, tool_name: string, tool_input: unknown, tool_response: unknown) =>
    run("post-tool-use", { ...base, hook_event_name: "PostToolUse", tool_name, tool_use_id: `toolu_${tool_name}_${i}`, tool_input, tool_response });

  const transcript: string[] = [];
  const bare: string[] = []; // secrets under a secret-named frontmatter key
  for (const [i, c] of cases.entries()) {
    const first = c.text.split("\n")[0]!;
    await post(i, "Bash", { command: c.text }, { stdout: c.text, stderr: "" });
    await run("post-tool-use-failure", { ...base, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_use_id: `toolu_f${i}`, tool_input: { command: "deploy" }, error: `Exit code 1\n${c.text}` });
    await post(i, "Edit", { file_path: join(project, `src/e${i}.ts`), old_string: "x", new_string: c.text }, { filePath: join(project, `src/e${i}.ts`) });
    await post(i, "Write", { file_path: join(project, `src/w${i}.env`), content: c.text }, { type: "create" });
    await post(i, "TaskCreate", { subject: `Rotate ${first}`, description: c.text, activeForm: `Rotating ${first}` }, { task: { id: String(i + 1), subject: `Rotate ${first}` } });
    await post(i, "TaskUpdate", { taskId: String(i + 1), status: "in_progress", subject: `Still rotating ${first}`, description: `again: ${c.text}` }, { success: true });
    await run("user-prompt-submit", { ...base, hook_event_name: "UserPromptSubmit", prompt: `please use this to fix the deploy: ${c.text}` });
    transcript.push(
      line("user", session, [{ type: "text", text: `Remember that we decided to keep this config: ${c.text}` }]),
      line("assistant", session, [{ type: "text", text: `[MEMORY: learned] case ${i}: ${first}\nWe decided to store it as ${first} for now.` }]),
      line("assistant", session, [{ type: "tool_use", id: `toolu_tc${i}`, name: "TaskCreate", input: { subject: `Audit ${first}`, description: c.text } }]),
      line("user", session, [{ type: "tool_result", tool_use_id: `toolu_tc${i}`, content: `Task #${100 + i} created successfully: Audit ${first}` }]),
      line("assistant", session, [{ type: "tool_use", id: `toolu_tu${i}`, name: "TaskUpdate", input: { taskId: String(100 + i), description: `more: ${c.text}` } }]),
      line("user", session, [{ type: "tool_result", tool_use_id: `toolu_tu${i}`, content: "Updated task" }]),
    );
    // A memory file: frontmatter (title, tags, kind, a secret-named key), body; its name and folder hold a secret too.
    // (Secrets that need their context to be recognised, a bare password, always come with it.)
    const fm = `---\ntitle: "${first.replace(/"/g, "'")}"\ntags: [ops, "${first.replace(/["\\]/g, "'")}"]\nkind: decision\napi_key: "${bare[bare.push(rand(32)) - 1]}"\nowner_note: "${first.replace(/"/g, "'")}"\n---\n`;
    writeFileSync(join(notes, `case-${i}.md`), `${fm}# Case ${i}: ${c.name}\n\n${c.text}\n`);
  }
  writeFileSync(join(notes, `${token}.md`), "# A note named after a token\n\nThe deploy token rotation is documented here.\n");
  // Longer than any chunk: a 4096-bit key, and a private block of many paragraphs.
  const keyLines = Array.from({ length: 49 }, () => rand(64, B64));
  const privateParas = Array.from({ length: 20 }, (_, i) => `Private paragraph ${i}: ${Array.from({ length: 25 }, () => rand(9, "abcdefghijklmnopqrstuvwxyz")).join(" ")}.`);
  writeFileSync(join(notes, "long.md"), `# Bastion\n\nRotate the deploy key.\n\n\`\`\`\n-----BEGIN RSA PRIVATE KEY-----\n${keyLines.join("\n")}\n-----END RSA PRIVATE KEY-----\n\`\`\`\n\n# Journal\n\n<private>\n${privateParas.join("\n\n")}\n</private>\n\nAfter the private block.\n`);
  writeFileSync(join(notes, `dir-${token}`, "inside.md"), "# In a folder named after a token\n\nRotation steps for the deploy.\n");
  // TodoWrite: every case as an item, and a <private> span that must never be stored.
  const privateWords = `pin-${rand(12)}-never-stored`;
  await post(0, "TodoWrite", { todos: [...cases.map((c) => ({ content: `Rotate: ${c.text}`, status: "pending", activeForm: `Rotating ${c.text.split("\n")[0]}` })), { content: `Call the bank <private>${privateWords}</private>`, status: "pending", activeForm: "Calling" }] }, { oldTodos: [], newTodos: [] });
  transcript.push(line("assistant", session, [{ type: "tool_use", id: "toolu_todo_t", name: "TodoWrite", input: { todos: cases.map((c) => ({ content: `Check ${c.text}`, status: "in_progress", activeForm: "Checking" })) } }]));
  transcript.push(line("user", session, [{ type: "tool_result", tool_use_id: "toolu_todo_t", content: "Todos have been modified successfully" }]));
  writeFileSync(base.transcript_path, `${transcript.join("\n")}\n`);
  // An event log: secrets in the text, the files, the session, the id and extra fields.
  writeFileSync(
    join(notes, "events", "ops.events.jsonl"),
    `${cases.map((c, i) => {
      const first = c.text.split("\n")[0]!;
      return JSON.stringify({ type: "decision", text: c.text, time: "2026-11-20T10:00:00Z", session: `es-${token} ${first}`, files: [`cfg/${token}.env`, first], id: `ev-${i}-${token} ${first}`, note: c.text });
    }).join("\n")}\n`,
  );

  await run("stop", { ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: `[MEMORY: decision] keep ${cases[0]!.text}` });
  await run("subagent-stop", { ...base, hook_event_name: "SubagentStop", agent_id: `a-${token}`, agent_transcript_path: base.transcript_path, stop_hook_active: false, last_assistant_message: cases[1]!.text });
  await run("pre-compact", { ...base, hook_event_name: "PreCompact", trigger: "auto" });
  await run("session-end", { ...base, hook_event_name: "SessionEnd", reason: `other ${token}` });
  await run(`unknown-hook-${token}`, {}); // the hook log names what it was given

  const db = openDb(join(home, "mem.sqlite"));
  let store: VectorStore | undefined;
  const summary = await indexPaths(
    { db, config: defaultConfig(), providers: [new HashEmbedder("hash-channels", 32)], vectors: async () => (store ??= await VectorStore.open(join(home, "vectors"))) },
    { roots: [notes], project: resolveProject(project), full: false },
  );
  assert.equal(summary.files.indexed, cases.length + 4, "every note, the two named after tokens, the long one and the event log");
  assert.equal(summary.vector.status, "ok");
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  // Every channel stored something (so the scan below is not vacuous).
  assert.ok(count("SELECT count(*) FROM events WHERE type = 'command_run'") >= cases.length);
  assert.ok(count("SELECT count(*) FROM events WHERE type = 'file_modified'") >= cases.length * 2);
  assert.ok(count("SELECT count(*) FROM events WHERE type = 'task'") >= cases.length * 3);
  assert.ok(count("SELECT count(*) FROM events WHERE type IN ('learned', 'decision')") >= cases.length);
  assert.ok(count("SELECT count(*) FROM events WHERE type = 'snapshot'") === 1);
  assert.ok(count("SELECT count(*) FROM chunks WHERE kind = 'decision' AND path LIKE '%events.jsonl'") === cases.length);
  const tasks = db.prepare("SELECT task_state FROM sessions WHERE task_state IS NOT NULL").pluck().all() as string[];
  assert.ok(tasks.join("").includes("[REDACTED:"), "the task lists were stored, redacted");
  assert.ok(count("SELECT count(*) FROM events WHERE type = 'task' AND text LIKE '%Call the bank%'") === 1, "the todo around the <private> span was kept");
  db.pragma("wal_checkpoint(TRUNCATE)");
  store?.close();
  db.close();

  // What the model is shown: injections for prompts about the cases, and the next briefing.
  for (const c of cases.slice(0, 12)) await run("user-prompt-submit", { ...base, session_id: "q", hook_event_name: "UserPromptSubmit", prompt: `what happened in ${c.name} with the configuration` });
  await run("session-start", { session_id: "next", cwd: project, hook_event_name: "SessionStart", source: "startup" });
  assert.ok(outputs.some((o) => o.includes("additionalContext")), "some hooks showed memory");
  assert.ok(readFileSync(join(home, "hooks.log"), "utf8").includes("unknown-hook-[REDACTED:github-token]"));

  const stored = filesUnder(home).map((f) => ({ f, bytes: readFileSync(f) }));
  assert.ok(stored.some((s) => s.f.endsWith(".lance")), "LanceDB files are scanned too");
  const leaks: string[] = [];
  const stored_ = new Set<string>();
  const shown_ = new Set<string>();
  const secrets = [...cases.flatMap((c) => c.secrets.map(([s]) => [c.name, s] as const)), ["the token in names and ids", token] as const, ["the <private> span", privateWords] as const, ...keyLines.map((l) => ["a line of a long private key", l] as const), ...privateParas.map((p) => ["a paragraph of a long <private> block", p.slice(20, 60)] as const), ...bare.map((b) => ["a frontmatter api_key", b] as const)];
  for (const [name, secret] of secrets) {
    // A long secret is also looked for by its middle, so a secret cut in two is caught as well.
    const needles = secret.length >= 24 ? [secret, secret.slice(4, 20)] : [secret];
    for (const needle of needles) {
      for (const s of stored) if (s.bytes.includes(needle)) { leaks.push(`${name}: in ${s.f}`); stored_.add(name); }
      for (const o of outputs) if (o.includes(needle) || o.includes(JSON.stringify(needle).slice(1, -1))) { leaks.push(`${name}: shown`); shown_.add(name); }
    }
  }
  return { leaks: [...new Set(leaks)], stored: stored_, shown: shown_ };
}
