import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { HOOK_EVENTS } from "../../src/contract/hook.cjs";
import { openDb } from "../../src/store/db.js";
import { PAYLOADS } from "../capture/shared-data.js";
import { hook, spawnHook as spawnProcess } from "./helpers.js";

const NAME_OF = Object.fromEntries(Object.entries(HOOK_EVENTS).map(([k, v]) => [v, k])) as Record<string, string>;
const FILE = join(PAYLOADS, "shepherd_hook_stdin_examples_v2.1.270.jsonl");
const present = existsSync(FILE);
const tmp = mkdtempSync(join(tmpdir(), "mem-hooks-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function spawnHook(name: string, input: string | Buffer, home: string) {
  return spawnProcess(name, input, { HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none" });
}

/** stdout is empty, or exactly one context object for an event that accepts context. */
function assertContract(event: string, stdout: string): void {
  if (stdout === "") return;
  assert.ok(event === "SessionStart" || event === "UserPromptSubmit" || event === "PreToolUse", `${event} printed ${stdout}`);
  const o = JSON.parse(stdout) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: unknown } };
  assert.deepEqual(Object.keys(o), ["hookSpecificOutput"]);
  assert.equal(o.hookSpecificOutput?.hookEventName, event);
  assert.equal(typeof o.hookSpecificOutput?.additionalContext, "string");
  assert.ok((o.hookSpecificOutput!.additionalContext as string).length < 10_000);
}

describe("real Claude Code 2.1.270 payloads through `mem hook`", { skip: present ? false : `no ${FILE}` }, () => {
  test("every payload of an event we handle exits 0 and prints only what the contract allows", async () => {
    const home = join(tmp, "real");
    const payloads = readFileSync(FILE, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
    let ran = 0;
    for (const p of payloads) {
      const name = NAME_OF[p.hook_event_name as string];
      if (!name) continue;
      const r = await spawnHook(name, JSON.stringify({ ...p, cwd: tmp }), home);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assertContract(p.hook_event_name as string, r.stdout);
      ran++;
    }
    assert.equal(ran, 24, "24 of the 26 payloads are events mem handles (the rest: SubagentStart, PostCompact)");
    const db = openDb(join(home, "mem.sqlite"));
    const types = db.prepare("SELECT type, count(*) n FROM events GROUP BY type ORDER BY type").all() as { type: string; n: number }[];
    db.close();
    // 2 PostToolUse (Bash, MCP) and 2 PostToolUseFailure (Bash exit 1, Read of a missing file) were
    // captured, and the 2 Notifications; the 3 PreToolUse were checked and stored nothing (their
    // calls are PostToolUse's to capture)
    assert.deepEqual(types.filter((t) => t.type !== "snapshot"), [
      { type: "command_run", n: 2 },
      { type: "error", n: 2 },
      { type: "file_explored", n: 1 },
      { type: "notification", n: 2 },
      { type: "tool", n: 1 },
    ]);
  });
});

describe("hostile stdin", () => {
  const cases: [string, string | Buffer][] = [
    ["empty", ""],
    ["malformed JSON", '{"session_id": "x", "prompt": '],
    ["a JSON array", "[1,2,3]"],
    ["binary", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))],
    ["10 MB of JSON", `{"session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_use_id":"toolu_huge","tool_input":{"command":"${"x".repeat(10 * 1024 * 1024)}"}}`],
  ];
  for (const name of Object.keys(HOOK_EVENTS)) {
    test(`${name}: exits 0, prints nothing, stores nothing`, async () => {
      const home = join(tmp, `hostile-${name}`);
      for (const [label, input] of cases) {
        const r = await hook(name, input, { MEM_HOME: home, MEM_EMBED_ORDER: "none", HOME: tmp });
        assert.equal(r.code, 0, label);
        assert.equal(r.stdout, "", label);
      }
      if (existsSync(join(home, "mem.sqlite"))) {
        const db = openDb(join(home, "mem.sqlite"));
        assert.equal(db.prepare("SELECT count(*) FROM events").pluck().get(), 0);
        db.close();
      }
    });
  }

  test("a real process fed 10 MB and binary exits 0 with nothing on stdout", async () => {
    const home = join(tmp, "spawned");
    for (const input of [cases[3]![1], cases[4]![1]]) {
      const r = await spawnHook("post-tool-use", input, home);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, "");
    }
  });

  test("an unknown hook name exits 0 and prints nothing", async () => {
    const r = await hook("no-such-event", "{}", { MEM_HOME: join(tmp, "unknown"), HOME: tmp });
    assert.deepEqual(r, { code: 0, stdout: "" });
  });
});
