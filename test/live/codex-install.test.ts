/**
 * `mem install --for codex --scope project` wires a real Codex CLI: the hooks.json and config.toml
 * it writes into <repo>/.codex/ (the hooks feature, mem's MCP server) are what Codex reads, and
 * one `codex exec` turn against the loopback Responses API (test/helpers/fake-responses.ts) gets
 * the SessionStart briefing and the prompt's memories. Then `mem uninstall --for codex` gives the
 * user's config.toml back byte for byte. The user-level config (a temp CODEX_HOME) holds only the
 * loopback provider and the project's trust, as a user's would.
 *
 * Needs a Codex binary: `MEM_CODEX_BIN=/path/to/codex`, or `codex` on PATH. Skipped without one.
 * No `--dangerously-bypass-hook-trust`: mem install records Codex's trust of its hooks, with the
 * hashes the installed Codex computes (its app server's hooks/list), and the hooks run.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
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
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-live-codex-install-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const PROJECT_CONFIG = "# the team's Codex settings\n[features]\nweb_search_request = false   # kept off\n";

test("mem install --for codex (project scope) wires a real Codex CLI: its briefing and the prompt's memories reach the model; uninstall gives config.toml back", { skip: CODEX ? false : "no Codex CLI (MEM_CODEX_BIN or codex on PATH)", timeout: 150_000 }, async () => {
  const codexHome = join(tmp, "codex-home");
  const proj = join(tmp, "proj");
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, ".codex"), { recursive: true });
  writeFileSync(join(proj, ".codex", "config.toml"), PROJECT_CONFIG);
  writeFileSync(join(proj, "decisions.md"), "# Storage\n\nWe chose SQLite over Postgres because it needs no server.\n");
  const fake = await startFakeResponses("Done.", "echo hello-from-tool");
  try {
    // codex on PATH: mem install asks it for the hooks' hashes to record their trust.
    const env: NodeJS.ProcessEnv = { PATH: `${dirname(CODEX!)}${delimiter}${process.env.PATH}`, HOME: tmp, CODEX_HOME: codexHome, MEM_HOME: join(tmp, "mem-home"), MEM_NO_DAEMON: "1", MEM_WATCH: "0", MEM_EMBED_ORDER: "none" };
    for (const args of [["index", proj, "-q"], ["remember", "Deploys freeze in December.", "--kind", "decision"]]) {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: proj });
      assert.equal(r.code, 0, r.stderr);
    }
    const userConfig = `model = "gpt-5.5"\nmodel_provider = "loopback"\n\n[model_providers.loopback]\nname = "loopback"\nbase_url = "${fake.url}"\nwire_api = "responses"\n\n[projects."${proj}"]\ntrust_level = "trusted"\n`;
    writeFileSync(join(codexHome, "config.toml"), userConfig);

    const inst = await runChild(process.execPath, [BIN, "install", "--for", "codex", "--scope", "project"], { env, cwd: proj });
    assert.equal(inst.code, 0, inst.stderr);
    assert.match(inst.stdout, /Codex's trust of these hooks is recorded/, inst.stdout);
    const trust = readFileSync(join(codexHome, "config.toml"), "utf8").slice(userConfig.length);
    assert.equal([...trust.matchAll(/^\[hooks\.state\."(.+):[a-z_]+:0:0"\] # added by mem install\ntrusted_hash = "sha256:[0-9a-f]{64}"$/gm)].filter((m) => m[1] === join(proj, ".codex", "hooks.json")).length, 5, trust);
    assert.match(readFileSync(join(proj, ".codex", "config.toml"), "utf8"), /^\[features\]\nweb_search_request = false {3}# kept off\nhooks = true # added by mem install\n/m);

    const r = await runChild(CODEX!, ["exec", "--dangerously-bypass-approvals-and-sandbox", "why did we choose SQLite over Postgres"], { env, cwd: proj, timeout: 120_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(fake.requests.length >= 1, "Codex asked the loopback model");
    const sent = JSON.stringify(fake.requests[0]);
    assert.match(sent, /<mem-briefing>.*Deploys freeze in December.*<\/mem-briefing>/, "the SessionStart briefing, from the hooks mem install wrote");
    assert.match(sent, /<mem-recall>.*We chose SQLite over Postgres.*<\/mem-recall>/, "the prompt's memories");
    // mem's MCP server as Codex reads it from the [mcp_servers.mem] mem install wrote.
    const list = await runChild(CODEX!, ["mcp", "list", "--json"], { env, cwd: proj, timeout: 30_000 });
    assert.equal(list.code, 0, list.stderr);
    const servers = JSON.parse(list.stdout) as { name: string; enabled: boolean; transport: { command: string; args: string[] } }[];
    assert.deepEqual(
      servers.map((s) => [s.name, s.enabled, s.transport.command, s.transport.args]),
      [["mem", true, process.execPath, [BIN, "mcp"]]],
    );

    const un = await runChild(process.execPath, [BIN, "uninstall", "--for", "codex", "--scope", "project"], { env, cwd: proj });
    assert.equal(un.code, 0, un.stderr);
    assert.equal(readFileSync(join(proj, ".codex", "config.toml"), "utf8"), PROJECT_CONFIG, "config.toml byte for byte");
    assert.equal(existsSync(join(proj, ".codex", "hooks.json")), false, "the hooks.json mem created is gone");
    assert.equal(readFileSync(join(codexHome, "config.toml"), "utf8"), userConfig, "the trust mem recorded is gone: the user's config.toml byte for byte");
  } finally {
    await fake.close();
  }
});
