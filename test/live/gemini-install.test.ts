/**
 * `mem install --for gemini --scope project` wires a real Gemini CLI: the hooks and `mcpServers.mem`
 * it writes into <repo>/.gemini/settings.json, beside the team's own settings, are what Gemini CLI
 * reads, and one `gemini -p` turn against the loopback generateContent server
 * (test/helpers/fake-gemini.ts) gets the SessionStart briefing and the prompt's memories. Then
 * `mem uninstall --for gemini` gives settings.json back byte for byte.
 *
 * Needs Gemini CLI: `MEM_GEMINI_BIN=/path/to/gemini`, or `gemini` on PATH. Skipped without one.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
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
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-gemini-install-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const TEAM_SETTINGS = '{\n    "general": { "vimMode": false },\n    "ui": {"theme": "GitHub"}\n}\n';

test("mem install --for gemini (project scope) wires a real Gemini CLI: its briefing and the prompt's memories reach the model; uninstall gives settings.json back", { skip: GEMINI ? false : "no Gemini CLI (MEM_GEMINI_BIN or gemini on PATH)", timeout: 180_000 }, async () => {
  const userHome = join(tmp, "home");
  const proj = join(tmp, "proj");
  mkdirSync(join(userHome, ".gemini"), { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, ".gemini"), { recursive: true });
  writeFileSync(join(proj, ".gemini", "settings.json"), TEAM_SETTINGS);
  writeFileSync(join(proj, "decisions.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
  writeFileSync(join(userHome, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
  const fake = await startFakeGemini("Done.");
  try {
    const memEnv = { MEM_HOME: join(tmp, "mem-home"), MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: userHome, ...memEnv, GEMINI_API_KEY: "loopback-only", GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_CLI_TRUST_WORKSPACE: "true" };
    for (const args of [["index", proj, "-q"], ["remember", "Deploys freeze in December.", "--kind", "decision"]]) {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: proj });
      assert.equal(r.code, 0, r.stderr);
    }
    const inst = await runChild(process.execPath, [BIN, "install", "--for", "gemini", "--scope", "project"], { env, cwd: proj });
    assert.equal(inst.code, 0, inst.stderr);
    const written = readFileSync(join(proj, ".gemini", "settings.json"), "utf8");
    assert.ok(written.startsWith('{\n    "general": { "vimMode": false },\n    "ui": {"theme": "GitHub"},\n    "hooks": {'), written);

    const r = await runChild(GEMINI!, ["-m", "gemini-2.5-flash", "--yolo", "-p", "why did we choose SQLite over Postgres"], { env, cwd: proj, timeout: 150_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const turn = fake.requests.filter((q) => /generateContent/i.test(q.path));
    assert.ok(turn.length >= 1, "Gemini CLI asked the loopback model");
    const sent = turn.map((q) => JSON.stringify(q.body)).join("\n");
    assert.match(sent, /&lt;mem-briefing&gt;.*Deploys freeze in December.*&lt;\/mem-briefing&gt;/, "the SessionStart briefing, from the hooks mem install wrote");
    assert.match(sent, /&lt;mem-recall&gt;.*We chose SQLite over Postgres.*&lt;\/mem-recall&gt;/, "the prompt's memories");

    const un = await runChild(process.execPath, [BIN, "uninstall", "--for", "gemini", "--scope", "project"], { env, cwd: proj });
    assert.equal(un.code, 0, un.stderr);
    assert.equal(readFileSync(join(proj, ".gemini", "settings.json"), "utf8"), TEAM_SETTINGS, "settings.json byte for byte");
  } finally {
    await fake.close();
  }
});
