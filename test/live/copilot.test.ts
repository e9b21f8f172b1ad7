/**
 * A real GitHub Copilot CLI, its repository hooks (.github/hooks/mem.json) running `mem hook
 * <event> --assistant copilot`, answers one prompt (`copilot -p`, the folder trusted for this run)
 * offline against a loopback server that speaks OpenAI's Responses API
 * (test/helpers/fake-responses.ts): Copilot CLI's own "bring your own key" settings
 * (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL, COPILOT_PROVIDER_WIRE_API=responses, `copilot help
 * environment`) need no GitHub sign-in. The SessionStart briefing and the prompt's memories must
 * reach the model's request; the shell command the model runs (`--allow-all-tools`) must be
 * captured as Copilot's, and the session's end recorded.
 *
 * Needs Copilot CLI: `MEM_COPILOT_BIN=/path/to/copilot`, or `copilot` on PATH (for example
 * `npm install @github/copilot` somewhere, then node_modules/.bin/copilot). Skipped without one.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { startFakeResponses } from "../helpers/fake-responses.js";
import { findBin } from "../helpers/live-bins.js";
import { runChild } from "../helpers/run-child.js";

const COPILOT = findBin("MEM_COPILOT_BIN", "copilot");
const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-copilot-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("Copilot CLI (offline, a loopback model): the briefing and the prompt's memories reach the model's request; its command and the session's end are captured as Copilot's", { skip: COPILOT ? false : "no Copilot CLI (MEM_COPILOT_BIN or copilot on PATH)", timeout: 180_000 }, async () => {
  const home = join(tmp, "home");
  const memHome = join(tmp, "mem-home");
  const proj = join(tmp, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, ".github", "hooks"), { recursive: true });
  writeFileSync(join(proj, "decisions.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
  const fake = await startFakeResponses("Done.", { name: "bash", arguments: { command: "echo hello-from-tool", description: "say hello" } });
  try {
    const memEnv = { PATH: process.env.PATH, HOME: home, MEM_HOME: memHome, MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
    for (const args of [["index", proj, "-q"], ["remember", "Deploys freeze in December.", "--kind", "decision"]]) {
      const r = await runChild(process.execPath, [BIN, ...args], { env: memEnv, cwd: proj });
      assert.equal(r.code, 0, r.stderr);
    }
    const hook = (event: string) => [{ type: "command", bash: `"${process.execPath}" "${BIN}" hook ${event} --assistant copilot`, timeoutSec: 30 }];
    const events = ["sessionStart", "userPromptSubmitted", "postToolUse", "postToolUseFailure", "agentStop", "sessionEnd"];
    writeFileSync(join(proj, ".github", "hooks", "mem.json"), JSON.stringify({ version: 1, hooks: Object.fromEntries(events.map((e) => [e, hook(e)])) }));
    const env: NodeJS.ProcessEnv = {
      ...memEnv,
      // Copilot CLI unpacks itself under this folder on its first start (reused when the caller sets one).
      COPILOT_PKG_CACHE_HOME: process.env.COPILOT_PKG_CACHE_HOME ?? join(tmp, "copilot-pkg"),
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: fake.url,
      COPILOT_PROVIDER_WIRE_API: "responses",
      COPILOT_PROVIDER_API_KEY: "loopback-only",
      COPILOT_MODEL: "gpt-5.5",
    };

    const r = await runChild(COPILOT!, ["-p", "why did we choose SQLite over Postgres", "--trust-folder", "--allow-all-tools", "--disable-client-telemetry"], { env, cwd: proj, timeout: 150_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(fake.requests.length >= 1, "Copilot CLI asked the loopback model");
    const sent = JSON.stringify(fake.requests[0]);
    assert.match(sent, /<mem-briefing>.*Deploys freeze in December.*<\/mem-briefing>/, "the sessionStart briefing");
    assert.match(sent, /<mem-recall>.*We chose SQLite over Postgres.*<\/mem-recall>/, "the prompt's memories");

    const db = openDb(join(memHome, "mem.sqlite"));
    try {
      const commands = db.prepare("SELECT text, metadata, session FROM events WHERE type = 'command_run'").all() as { text: string; metadata: string; session: string }[];
      assert.deepEqual(commands.map((x) => [x.text, (JSON.parse(x.metadata) as { assistant?: string }).assistant]), [["$ echo hello-from-tool", "copilot"]]);
      const ended = db.prepare("SELECT end_reason FROM sessions WHERE session = ?").pluck().get(commands[0]!.session);
      assert.equal(ended, "complete", "sessionEnd recorded the end");
    } finally {
      db.close();
    }
  } finally {
    await fake.close();
  }
});
