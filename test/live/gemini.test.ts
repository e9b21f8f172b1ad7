/**
 * A real Gemini CLI, its settings.json running `mem hook <event> --assistant gemini`, answers one
 * prompt (`gemini -p`, non-interactive) against a loopback server that speaks Gemini's
 * generateContent API (test/helpers/fake-gemini.ts, through GOOGLE_GEMINI_BASE_URL with an API key
 * that never leaves the machine): the SessionStart briefing and the prompt's memories must reach
 * the model's request; the shell command the model runs (`--yolo`: no approval asked) and the
 * turn's decision must be captured with the assistant recorded.
 *
 * Needs Gemini CLI: `MEM_GEMINI_BIN=/path/to/gemini`, or `gemini` on PATH (for example
 * `npm install @google/gemini-cli` somewhere, then node_modules/.bin/gemini). Skipped without one.
 * The model is named (`-m`) so that no routing call precedes the turn.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { startFakeGemini } from "../helpers/fake-gemini.js";
import { runChild } from "../helpers/run-child.js";

function findGemini(): string | undefined {
  if (process.env.MEM_GEMINI_BIN) return existsSync(process.env.MEM_GEMINI_BIN) ? process.env.MEM_GEMINI_BIN : undefined;
  try {
    return execFileSync("which", ["gemini"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}
const GEMINI = findGemini();
const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-gemini-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const REPLY = "Done. [MEMORY: decision] Prices are cached for five minutes in Redis.";

test("Gemini CLI: the briefing and the prompt's memories reach the model's request; its shell command and the turn's decision are captured as Gemini's", { skip: GEMINI ? false : "no Gemini CLI (MEM_GEMINI_BIN or gemini on PATH)", timeout: 150_000 }, async () => {
  const userHome = join(tmp, "home");
  const memHome = join(tmp, "mem-home");
  const proj = join(tmp, "proj");
  mkdirSync(join(userHome, ".gemini"), { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(proj, "decisions.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
  const fake = await startFakeGemini(REPLY, { name: "run_shell_command", args: { command: "echo hello-from-tool", description: "say hello" } });
  try {
    const memEnv = { MEM_HOME: memHome, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: userHome, ...memEnv, GEMINI_API_KEY: "loopback-only", GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_CLI_TRUST_WORKSPACE: "true" };
    for (const args of [["index", proj, "-q"], ["remember", "Deploys freeze in December.", "--kind", "decision"]]) {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: proj });
      assert.equal(r.code, 0, r.stderr);
    }
    const hook = (event: string) => [{ hooks: [{ type: "command", name: `mem-${event}`, command: `"${process.execPath}" "${BIN}" hook ${event} --assistant gemini`, timeout: 30_000 }] }];
    const events = ["SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"];
    writeFileSync(join(userHome, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } }, hooks: Object.fromEntries(events.map((e) => [e, hook(e)])) }));

    const r = await runChild(GEMINI!, ["-m", "gemini-2.5-flash", "--yolo", "-p", "why did we choose SQLite over Postgres"], { env, cwd: proj, timeout: 120_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /Prices are cached/, "the loopback model's answer");
    const turn = fake.requests.filter((q) => q.path.includes("GenerateContent") || q.path.includes("generateContent"));
    assert.ok(turn.length >= 1, "Gemini CLI asked the loopback model");
    const sent = turn.map((q) => JSON.stringify(q.body)).join("\n");
    // Gemini CLI wraps hook context in <hook_context> and escapes the angle brackets inside it.
    assert.match(sent, /<hook_context>.*&lt;mem-briefing&gt;.*Deploys freeze in December.*&lt;\/mem-briefing&gt;.*<\/hook_context>/, "the SessionStart briefing");
    assert.match(sent, /&lt;mem-recall&gt;.*We chose SQLite over Postgres.*&lt;\/mem-recall&gt;/, "the prompt's memories");

    const db = openDb(join(memHome, "mem.sqlite"));
    try {
      const rows = db.prepare("SELECT text, metadata FROM events WHERE type = 'decision' AND text LIKE 'Prices are cached%'").all() as { text: string; metadata: string }[];
      assert.deepEqual(rows.map((x) => [x.text, (JSON.parse(x.metadata) as { assistant?: string }).assistant]), [["Prices are cached for five minutes in Redis.", "gemini"]]);
      const commands = db.prepare("SELECT text, metadata FROM events WHERE type = 'command_run'").all() as { text: string; metadata: string }[];
      assert.deepEqual(commands.map((x) => [x.text, (JSON.parse(x.metadata) as { assistant?: string }).assistant]), [["$ echo hello-from-tool", "gemini"]]);
    } finally {
      db.close();
    }
  } finally {
    await fake.close();
  }
});
