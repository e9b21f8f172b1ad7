/**
 * A real Codex CLI, its hooks.json running `mem hook <event> --assistant codex`, runs one turn
 * (`codex exec`) against a loopback server that speaks OpenAI's Responses API
 * (test/helpers/fake-responses.ts): the SessionStart briefing and the prompt's memories must reach
 * the model's request; the command the model runs (approvals and sandbox bypassed: an `echo` in a
 * temp directory) and the turn's decision must be captured with the assistant recorded.
 *
 * Needs a Codex binary: `MEM_CODEX_BIN=/path/to/codex`, or `codex` on PATH (for example
 * `npm install @openai/codex` somewhere, then node_modules/.bin/codex). Skipped without one.
 * Codex runs hooks only once trusted; `--dangerously-bypass-hook-trust` stands in for that review.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { startFakeResponses } from "../helpers/fake-responses.js";
import { runChild } from "../helpers/run-child.js";

function findCodex(): string | undefined {
  if (process.env.MEM_CODEX_BIN) return existsSync(process.env.MEM_CODEX_BIN) ? process.env.MEM_CODEX_BIN : undefined;
  try {
    return execFileSync("which", ["codex"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}
const CODEX = findCodex();
const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-codex-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const REPLY = "Done. [MEMORY: decision] Prices are cached for five minutes in Redis.";

test("Codex CLI: the briefing and the prompt's memories reach the model's request; its command and the turn's decision are captured as Codex's", { skip: CODEX ? false : "no Codex CLI (MEM_CODEX_BIN or codex on PATH)", timeout: 120_000 }, async () => {
  const codexHome = join(tmp, "codex-home");
  const memHome = join(tmp, "mem-home");
  const proj = join(tmp, "proj");
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(proj, "decisions.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
  const fake = await startFakeResponses(REPLY, "echo hello-from-tool");
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tmp, CODEX_HOME: codexHome, MEM_HOME: memHome, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
    for (const args of [["index", proj, "-q"], ["remember", "Deploys freeze in December.", "--kind", "decision"]]) {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: proj });
      assert.equal(r.code, 0, r.stderr);
    }
    writeFileSync(join(codexHome, "config.toml"), `model = "gpt-5.5"\nmodel_provider = "loopback"\n\n[model_providers.loopback]\nname = "loopback"\nbase_url = "${fake.url}"\nwire_api = "responses"\n\n[features]\nhooks = true\n`);
    const hook = (event: string) => [{ hooks: [{ type: "command", command: `"${process.execPath}" "${BIN}" hook ${event} --assistant codex` }] }];
    writeFileSync(join(codexHome, "hooks.json"), JSON.stringify({ hooks: Object.fromEntries(["SessionStart", "UserPromptSubmit", "PostToolUse", "PreCompact", "Stop"].map((e) => [e, hook(e)])) }));

    const r = await runChild(CODEX!, ["exec", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "why did we choose SQLite over Postgres"], { env, cwd: proj, timeout: 90_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(fake.requests.length >= 1, "Codex asked the loopback model");
    const sent = JSON.stringify(fake.requests[0]);
    assert.match(sent, /<mem-briefing>.*Deploys freeze in December.*<\/mem-briefing>/, "the SessionStart briefing");
    assert.match(sent, /<mem-recall>.*We chose SQLite over Postgres.*<\/mem-recall>/, "the prompt's memories");

    const db = openDb(join(memHome, "mem.sqlite"));
    try {
      const rows = db.prepare("SELECT text, metadata FROM events WHERE type = 'decision' AND text LIKE 'Prices are cached%'").all() as { text: string; metadata: string }[];
      assert.deepEqual(rows.map((x) => [x.text, (JSON.parse(x.metadata) as { assistant?: string }).assistant]), [["Prices are cached for five minutes in Redis.", "codex"]]);
      const commands = db.prepare("SELECT id, text, metadata FROM events WHERE type = 'command_run'").all() as { id: string; text: string; metadata: string }[];
      assert.deepEqual(commands.map((x) => [x.id, x.text, (JSON.parse(x.metadata) as { assistant?: string }).assistant]), [["call_1", "$ echo hello-from-tool", "codex"]]);
    } finally {
      db.close();
    }
  } finally {
    await fake.close();
  }
});
