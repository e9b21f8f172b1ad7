/**
 * A PostToolUse payload nested thousands of levels deep (JSON.parse copes; JSON.stringify and
 * every recursive walk after it overflow the stack) is stored with its deep part truncated, not
 * dropped: through a hook process writing it itself, and through the warm daemon.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { parsePayload } from "../../src/contract/hook.cjs";
import { openDb } from "../../src/store/db.js";
import { DEPTH_MARKER, MAX_JSON_DEPTH } from "../../src/util/json-depth.cjs";
import { BIN, spawnHook } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-deep-json-"));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
function memHome(): string {
  const h = join(tmp, `h${n++}`);
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, "config.json"), JSON.stringify({ daemon: { idleMs: 60_000 }, embedding: { order: [] } }));
  return h;
}

/** `{"a":{"a":...{"a":"leaf"}...}}`, `depth` objects deep, written as text (JSON.stringify itself overflows on it). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}"leaf"${"}".repeat(depth)}`;

/** A Bash PostToolUse payload whose tool_response and tool_input.extra are nested `depth` deep. */
function deepPayload(h: string, id: string, depth: number): string {
  return `{"session_id":"deep","cwd":${JSON.stringify(h)},"hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"${id}","tool_input":{"command":"ls -R","extra":${nested(depth)}},"tool_response":${nested(depth)}}`;
}

function storedEvent(h: string, id: string): { type: string; text: string; metadata: string } | undefined {
  const db = openDb(join(h, "mem.sqlite"));
  try {
    return db.prepare("SELECT type, text, metadata FROM events WHERE id = ?").get(id) as { type: string; text: string; metadata: string } | undefined;
  } finally {
    db.close();
  }
}

const hookErrors = (h: string) => (existsSync(join(h, "hooks.log")) ? readFileSync(join(h, "hooks.log"), "utf8").split("\n").filter((l) => /Error/.test(l)) : []);

describe("tool payloads nested 5,000 deep", () => {
  test("parsing a hook payload cuts everything below the depth limit to a short marker", () => {
    const p = parsePayload(`{"tool_response":${nested(5_000)},"flat":[1,{"b":2}]}`);
    assert.ok(p);
    let v: unknown = p.tool_response;
    let depth = 1;
    while (v !== null && typeof v === "object") {
      v = (v as { a: unknown }).a;
      depth++;
    }
    assert.equal(v, DEPTH_MARKER);
    assert.equal(depth, MAX_JSON_DEPTH, "objects are kept down to the limit (the root is level 0)");
    assert.deepEqual(p.flat, [1, { b: 2 }], "shallow parts are untouched");
    assert.ok(JSON.stringify(p).length < 1_000);
  });

  test("a hook writing the event itself (no daemon) stores it, the deep part truncated", async () => {
    const h = memHome();
    const r = await spawnHook("post-tool-use", deepPayload(h, "toolu_deep_direct", 5_000), { HOME: tmp, MEM_HOME: h, MEM_EMBED_ORDER: "none" });
    assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    assert.deepEqual(hookErrors(h), []);
    const ev = storedEvent(h, "toolu_deep_direct");
    assert.equal(ev?.type, "command_run", "the event is stored");
    assert.match(ev!.text, /ls -R/);
  });

  test("a hook handing the event to the running daemon gets it stored, the deep part truncated", async () => {
    const h = memHome();
    const d = spawn(process.execPath, [BIN, "serve"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h }, stdio: "ignore" });
    children.push(d);
    const end = Date.now() + 10_000;
    while ((await ask(h, { op: "ping" }, 500)).kind !== "reply") {
      assert.ok(Date.now() < end, "the daemon did not come up");
      await new Promise((r) => setTimeout(r, 50));
    }
    const requests = async () => {
      const s = await ask(h, { op: "status" }, 30_000);
      return s.kind === "reply" && s.reply.ok ? Number(s.reply.requests) : Number.NaN;
    };
    const before = await requests();
    const r = await spawnHook("post-tool-use", deepPayload(h, "toolu_deep_daemon", 5_000), { HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "0" });
    assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: "" });
    assert.deepEqual(hookErrors(h), []);
    assert.equal(storedEvent(h, "toolu_deep_daemon")?.type, "command_run");
    assert.ok((await requests()) >= before + 2, "the daemon took the capture");
    await ask(h, { op: "stop" }, 2_000);
  });
});
