/**
 * The structural barrier (src/capture/extract/withhold.ts over src/redact/sources.cts): the output of a command
 * that prints secret material, and the content of a secret file read, edited or written, are never stored, on
 * any channel (PostToolUse and PostToolUseFailure payloads; transcripts read at Stop, SubagentStop, PreCompact
 * and SessionEnd, subagent progress lines included), whatever the rules would make of it: the content here is
 * made of values no redaction rule recognises. Only the fact is kept ("… (content not stored: secret file .env)").
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { withholdSecrets } from "../../src/capture/extract/withhold.js";
import { openDb } from "../../src/store/db.js";
import { hook } from "../hooks/helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-withhold-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Content no rule redacts (no secret-named key, no random value): only the barrier keeps it out. */
const plain = (i: number, what: string) => `ROUTE_${i}=${what}-lantern-meadow-${i}\nREGION=eu-west-1`;

const COMMANDS = [
  "cat .env", "cat .env.local", "printenv", "env", "set", "export -p", "kubectl get secret db -o yaml", "kubectl describe secret api",
  "aws configure list", "aws configure export-credentials", "aws sts get-session-token", "gcloud auth print-access-token",
  "az account get-access-token", "cat ~/.pgpass", "cat ~/.netrc", "cat ~/.aws/credentials", "cat ~/.ssh/id_ed25519", "cat certs/tls.key",
  "vault kv get secret/app", "op read op://ops/db/password", "security find-generic-password -s ci -w", "docker inspect api",
];
const FILES = [".env", ".env.production", "config/.pgpass", "certs/server.pem", "deploy/credentials.json", ".ssh/id_rsa", "secrets.yaml", ".my.cnf"];

const line = (type: "user" | "assistant", session: string, content: unknown[], extra: Record<string, unknown> = {}) => ({
  type, sessionId: session, timestamp: "2026-11-28T10:00:00Z", message: { role: type, content }, ...extra,
});

describe("withholdSecrets (pure)", () => {
  test("replaces a secret command's result and a secret file's content, in main and progress lines, and leaves the rest", () => {
    const lines = [
      line("assistant", "s", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "cat .env" } }, { type: "tool_use", id: "t2", name: "Bash", input: { command: "ls" } }]),
      line("user", "s", [{ type: "tool_result", tool_use_id: "t1", content: "A=1" }, { type: "tool_result", tool_use_id: "t2", content: "README.md" }], { toolUseResult: { stdout: "A=1" } }),
      { type: "progress", sessionId: "s", data: { agentId: "a1", message: line("assistant", "s", [{ type: "tool_use", id: "t3", name: "Write", input: { file_path: "/p/.env", content: "B=2" } }]) } },
      { type: "progress", sessionId: "s", data: { agentId: "a1", message: line("user", "s", [{ type: "tool_result", tool_use_id: "t3", content: "ok" }], { toolUseResult: { type: "create", content: "B=2" } }) } },
    ];
    const before = JSON.stringify(lines);
    const out = withholdSecrets(lines);
    assert.equal(JSON.stringify(lines), before, "the input is not changed");
    const text = JSON.stringify(out);
    assert.ok(!text.includes("A=1") && !text.includes("B=2"), text);
    assert.ok(text.includes("README.md"), "a plain command's output is kept");
    assert.ok(text.includes("[content not stored: secret file .env]"));
    assert.ok(text.includes('"type":"create"'), "Write's operation is kept");
  });
});

test("no secret file content or secret command output is stored, through any channel", { timeout: 300_000 }, async () => {
  const home = join(tmp, "home");
  const project = join(tmp, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
  const env = { MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" };
  const session = "s-withhold";
  const base = { session_id: session, cwd: project, transcript_path: join(tmp, "t.jsonl") };
  const markers: string[] = [];
  const mark = (what: string) => {
    const text = plain(markers.length, what);
    markers.push(text.split("\n")[0]!);
    return text;
  };
  const post = (id: string, tool_name: string, tool_input: unknown, tool_response: unknown) =>
    hook("post-tool-use", { ...base, hook_event_name: "PostToolUse", tool_name, tool_use_id: id, tool_input, tool_response }, env);
  const fail = (id: string, command: string, error: string) =>
    hook("post-tool-use-failure", { ...base, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_use_id: id, tool_input: { command }, error }, env);

  // PostToolUse and PostToolUseFailure payloads.
  for (const [i, command] of COMMANDS.entries()) {
    await post(`toolu_ok${i}`, "Bash", { command }, { stdout: mark("stdout"), stderr: mark("stderr"), interrupted: false });
    await fail(`toolu_fail${i}`, `${command} | grep -q ROUTE`, `Exit code 1\n${mark("error")}`);
  }
  for (const [i, f] of FILES.entries()) {
    const file_path = join(project, f);
    await post(`toolu_read${i}`, "Read", { file_path }, { type: "text", file: { filePath: file_path, content: mark("read") } });
    await post(`toolu_edit${i}`, "Edit", { file_path, old_string: mark("old"), new_string: mark("new") }, { filePath: file_path, originalFile: mark("original") });
    await post(`toolu_write${i}`, "Write", { file_path, content: mark("write") }, { type: "create", filePath: file_path, content: mark("written") });
    await post(`toolu_multi${i}`, "MultiEdit", { file_path, edits: [{ old_string: mark("m-old"), new_string: mark("m-new") }] }, { filePath: file_path });
  }
  // A command that writes a secret file's content on its own line.
  await post("toolu_heredoc", "Bash", { command: `cat > .env <<EOF\n${mark("heredoc")}\nEOF` }, { stdout: "", stderr: "" });
  await post("toolu_echo", "Bash", { command: `echo '${mark("echo").split("\n")[0]}' >> .env.local` }, { stdout: "", stderr: "" });

  // A transcript: the same calls as tool_use / tool_result pairs, failed ones too, and a subagent's in progress lines.
  const t: unknown[] = [];
  for (const [i, command] of COMMANDS.entries()) {
    t.push(line("assistant", session, [{ type: "tool_use", id: `toolu_t${i}`, name: "Bash", input: { command } }]));
    t.push(line("user", session, [{ type: "tool_result", tool_use_id: `toolu_t${i}`, content: mark("t-out"), is_error: i % 2 === 0 }], { toolUseResult: { stdout: mark("t-struct") } }));
  }
  for (const [i, f] of FILES.entries()) {
    const file_path = join(project, f);
    t.push(line("assistant", session, [{ type: "tool_use", id: `toolu_tr${i}`, name: "Read", input: { file_path } }]));
    t.push(line("user", session, [{ type: "tool_result", tool_use_id: `toolu_tr${i}`, content: [{ type: "text", text: mark("t-read") }] }], { toolUseResult: { type: "text", file: { filePath: file_path, content: mark("t-read-struct") } } }));
    const sub = (m: unknown) => ({ type: "progress", sessionId: session, data: { type: "agent_progress", agentId: "a-1", message: m } });
    t.push(sub(line("assistant", session, [{ type: "tool_use", id: `toolu_ts${i}`, name: "Write", input: { file_path, content: mark("t-sub-write") } }])));
    t.push(sub(line("user", session, [{ type: "tool_result", tool_use_id: `toolu_ts${i}`, content: `Error: ${mark("t-sub-error")}`, is_error: true }])));
  }
  // The control: a plain command's failed output is stored (the channel is not empty).
  const control = "NOTE=harbor-control-lantern-output";
  t.push(line("assistant", session, [{ type: "tool_use", id: "toolu_ctl", name: "Bash", input: { command: "cat README.md" } }]));
  t.push(line("user", session, [{ type: "tool_result", tool_use_id: "toolu_ctl", content: `Exit code 1\n${control}`, is_error: true }]));
  writeFileSync(base.transcript_path, `${t.map((l) => JSON.stringify(l)).join("\n")}\n`);
  await hook("stop", { ...base, hook_event_name: "Stop", stop_hook_active: false }, env);
  await hook("subagent-stop", { ...base, hook_event_name: "SubagentStop", agent_id: "a-1", agent_transcript_path: base.transcript_path, stop_hook_active: false }, env);
  await hook("pre-compact", { ...base, hook_event_name: "PreCompact", trigger: "auto" }, env);
  await hook("session-end", { ...base, hook_event_name: "SessionEnd", reason: "other" }, env);

  const db = openDb(join(home, "mem.sqlite"));
  const texts = db.prepare("SELECT text FROM events").pluck().all() as string[];
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const stored = filesUnder(home).map((f) => ({ f, bytes: readFileSync(f) }));
  const leaks = markers.flatMap((m) => stored.filter((s) => s.bytes.includes(m)).map((s) => `${m} in ${s.f.slice(home.length)}`));
  assert.deepEqual(leaks, [], `${leaks.length} of ${markers.length} contents stored`);
  assert.ok(texts.some((x) => x.includes(control)), "the control output was stored");
  assert.ok(texts.some((x) => x === "$ cat .env (content not stored: secret file .env)"), "the fact that it ran is kept");
  assert.ok(texts.some((x) => /^Read .*\.pgpass \(content not stored: secret file \.pgpass\)$/.test(x)), "the fact that it was read is kept");
  assert.ok(texts.some((x) => x.includes("the command writes secret file .env")), "the fact that it was written is kept");
});
