import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { indexPaths } from "../../indexer/pipeline.js";
import { defaultConfig } from "../../src/config/config.js";
import { openDb } from "../../src/store/db.js";
import { VectorStore } from "../../src/store/vectors.js";
import { HashEmbedder } from "../helpers/hash-embedder.js";
import { secretCases } from "../helpers/secrets.js";
import { hook } from "../hooks/helpers.js";
import { cleanText } from "../../src/redact/clean.cjs";

const tmp = mkdtempSync(join(tmpdir(), "mem-nosecret-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test("no secret of the corpus reaches SQLite, FTS5, LanceDB or an injection, whichever way it came in", async () => {
  const cases = secretCases();
  assert.ok(cases.length >= 30);
  const home = join(tmp, "home");
  const project = join(tmp, "project");
  mkdirSync(join(project, "notes"), { recursive: true });
  const env = { MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" };
  const transcript = join(tmp, "transcript.jsonl");
  const lines: string[] = [];
  for (const [i, c] of cases.entries()) {
    // a tool call whose command and output carry the secret
    await hook("post-tool-use", { session_id: "s", cwd: project, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: `toolu_s${i}`, tool_input: { command: c.text }, tool_response: { stdout: c.text, stderr: "" } }, env);
    await hook("post-tool-use-failure", { session_id: "s", cwd: project, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_use_id: `toolu_f${i}`, tool_input: { command: "deploy" }, error: `Exit code 1\n${c.text}` }, env);
    // the model's own words, tagged so they are kept
    lines.push(JSON.stringify({ type: "assistant", sessionId: "s", timestamp: "2026-11-22T10:00:00Z", message: { role: "assistant", content: [{ type: "text", text: `[MEMORY: learned] case ${i}: ${c.text.split("\n")[0]}` }] } }));
    // a memory file
    writeFileSync(join(project, "notes", `case-${i}.md`), `# Case ${i}: ${c.name}\n\n${c.text}\n`);
  }
  writeFileSync(transcript, lines.join("\n") + "\n");
  await hook("stop", { session_id: "s", cwd: project, transcript_path: transcript, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: `[MEMORY: decision] keep ${cases[0]!.text}` }, env);
  await hook("pre-compact", { session_id: "s", cwd: project, transcript_path: transcript, hook_event_name: "PreCompact", trigger: "auto" }, env);

  const db = openDb(join(home, "mem.sqlite"));
  let store: VectorStore | undefined;
  const summary = await indexPaths(
    { db, config: defaultConfig(), providers: [new HashEmbedder("hash-secrets", 32)], vectors: async () => (store ??= await VectorStore.open(join(home, "vectors"))) },
    { roots: [join(project, "notes")], project: { id: cleanText(project), name: "p", root: project }, full: false },
  );
  assert.equal(summary.files.indexed, cases.length);
  assert.ok((db.prepare("SELECT count(*) FROM events").pluck().get() as number) >= cases.length * 3);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const injected: string[] = [];
  for (const c of cases.slice(0, 10)) {
    const r = await hook("user-prompt-submit", { session_id: "q", cwd: project, hook_event_name: "UserPromptSubmit", prompt: `what happened in ${c.name} with the configuration` }, env);
    injected.push(r.stdout);
  }
  store?.close();
  db.close();
  assert.ok(injected.some((o) => o.includes("additionalContext")), "some prompts got context");

  const stored = filesUnder(home).map((f) => ({ f, bytes: readFileSync(f) }));
  assert.ok(stored.some((s) => s.f.endsWith("mem.sqlite")));
  const leaks: string[] = [];
  for (const c of cases) {
    for (const [secret] of c.secrets) {
      for (const s of stored) if (s.bytes.includes(secret)) leaks.push(`${c.name}: in ${s.f}`);
      for (const o of injected) if (o.includes(secret)) leaks.push(`${c.name}: injected`);
    }
  }
  assert.deepEqual(leaks, []);
});
