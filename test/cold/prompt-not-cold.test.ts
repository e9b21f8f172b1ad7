/**
 * Cold search is never on the prompt's path: the UserPromptSubmit hook (answering in-process) and
 * the daemon's prompt search inject warm memories only, never an archived note, and run no git
 * (a `git` standing first on PATH records every call).
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { gitShim, makeHistory } from "../helpers/cold-repo.js";
import { hasCommand } from "../helpers/has-command.js";
import { BIN, runMem } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-prompt-cold-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});
const proj = join(tmp, "proj");
const home = join(tmp, "home");
const calls = join(tmp, "git-calls.log");
/** Its words are all in the warm note and two of three in the archived one: both pass the prompt's relevance floor. */
const PROMPT = "what replaced the numbat importer?";
const WARM = "The numbat importer was replaced by the ledger sync";
const ARCHIVED = "The numbat importer ran from a cron box every night";

const gitLogCalls = () => (existsSync(calls) ? readFileSync(calls, "utf8").split("\n").filter((l) => /(^| )log( |$)/.test(l)) : []);

describe("the prompt's memories leave cold search out", { skip: hasCommand("git") ? false : "git is not installed" }, () => {
  let env: NodeJS.ProcessEnv;
  before(async () => {
    makeHistory(proj); // "Retire the numbat importer …" is in its history
    mkdirSync(join(proj, "memory", "archive"), { recursive: true });
    writeFileSync(join(proj, "memory", "state.md"), `# State\n\n${WARM}.\n`);
    writeFileSync(join(proj, "memory", "archive", "2023.md"), `# 2023\n\n${ARCHIVED}, a numbat importer cron box.\n`);
    mkdirSync(home, { recursive: true });
    env = { PATH: `${gitShim(join(tmp, "bin"), { log: calls })}:${process.env.PATH}`, HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none" };
    assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env: { ...env, MEM_NO_DAEMON: "1" } })).code, 0);
    // The archived note is there to be found, by --cold.
    const cold = await runMem(["query", PROMPT, "--cold", "--json"], { env: { ...env, MEM_NO_DAEMON: "1" }, cwd: proj });
    const a = JSON.parse(cold.stdout) as { cold: { results: { cold: string; text?: string; subject?: string }[] } };
    assert.ok(a.cold.results.some((r) => r.cold === "tier" && r.text?.includes(ARCHIVED)));
    assert.ok(a.cold.results.some((r) => r.cold === "git" && /numbat importer/.test(r.subject ?? "")));
    assert.ok(gitLogCalls().length > 0, "the recording git sees mem query --cold's calls");
    rmSync(calls);
  });

  test("the hook answering in-process injects the warm note, not the archived one, and runs no git log", async () => {
    const r = await spawnHook("user-prompt-submit", JSON.stringify({ session_id: "s1", cwd: proj, hook_event_name: "UserPromptSubmit", prompt: PROMPT }), { ...env, MEM_NO_DAEMON: "1" });
    assert.equal(r.code, 0);
    const context = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(context.includes(WARM), context);
    assert.ok(!context.includes("cron box every night"), "no archived note");
    assert.ok(!/Retire the numbat|mem-cold/.test(context), "no commit");
    assert.deepEqual(gitLogCalls(), []);
  });

  test("the daemon's prompt search injects the warm note, not the archived one, and runs no git log; its socket search takes cold", async () => {
    const child = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
    children.push(child);
    const end = Date.now() + 15_000;
    while ((await ask(home, { op: "ping" }, 500)).kind !== "reply") {
      assert.ok(Date.now() < end, "the daemon started");
      await new Promise((r) => setTimeout(r, 50));
    }
    const r = await ask(home, { op: "prompt", prompt: PROMPT, cwd: proj, session: "s2" }, 10_000);
    assert.equal(r.kind, "reply");
    const text = r.kind === "reply" ? String((r.reply as { text?: string }).text ?? "") : "";
    assert.ok(text.includes(WARM), text);
    assert.ok(!text.includes("cron box every night") && !/Retire the numbat|mem-cold/.test(text));
    assert.deepEqual(gitLogCalls(), []);

    // The socket's search op (not the prompt's path) takes cold, and only then runs git.
    const plain = await ask(home, { op: "search", cwd: proj, text: "numbat importer" }, 10_000);
    assert.ok(plain.kind === "reply" && plain.reply.ok && !("cold" in plain.reply));
    assert.deepEqual(gitLogCalls(), []);
    const cold = await ask(home, { op: "search", cwd: proj, text: "numbat importer", cold: true }, 15_000);
    assert.ok(cold.kind === "reply" && cold.reply.ok, JSON.stringify(cold));
    const items = (cold.reply as unknown as { cold: { results: { cold: string; path?: string; memoryId?: string; subject?: string }[] } }).cold.results;
    assert.deepEqual(items.map((x) => x.cold), ["tier", "git", "git"]);
    assert.equal(items[0]!.path, join(proj, "memory", "archive", "2023.md"));
    assert.ok(items[0]!.memoryId, "a cold-tier result names its memory too");
    assert.equal(items[1]!.subject, "Retire the numbat importer: it double-counted invoices");
    assert.ok(gitLogCalls().length > 0);
    await ask(home, { op: "stop" }, 2_000);
  });
});
