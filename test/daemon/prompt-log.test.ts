/**
 * The warm daemon logs each prompt it answers (once the answer reached the hook): a real `mem
 * serve`, a real hook process asking it, the row in the store with the daemon's latency, its mode,
 * the text the hook printed and the candidates' fates, and the explorer's page for it. (It is
 * logged from the same `delivered` callback that marks a prompt's memories as shown, whose
 * late-answer case test/daemon/daemon.test.ts covers.)
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openApp } from "../../src/app.js";
import { ask } from "../../src/daemon/client.cjs";
import { resolveProject } from "../../src/project/identity.js";
import { openDb } from "../../src/store/db.js";
import { promptRuns } from "../../src/store/prompt-log.js";
import { uiContext } from "../../src/web/context.js";
import { escapeHtml } from "../../src/web/html.js";
import { startUi } from "../../src/web/server.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { until } from "../helpers/until.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-dpl-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const PROMPT = "why did we choose advisory locks for the job queue";
const requests = async (home: string) => {
  const r = await ask(home, { op: "status" }, 30_000);
  return r.kind === "reply" && r.reply.ok ? Number(r.reply.requests) : Number.NaN;
};

describe("the daemon's prompt log", () => {
  test("a prompt the daemon answers for a real hook is logged with its latency, mode, injected text and fates", async () => {
    const s = daemonSandbox(tmp, { daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: [] } });
    const seed = openApp(s.env);
    uiContext(seed, resolveProject(s.proj), s.proj).svc.put({ text: "We chose advisory locks for the job queue: SKIP LOCKED starved the workers", kind: "decision", project: s.proj });
    uiContext(seed, resolveProject(s.proj), s.proj).svc.put({ text: "The queue dashboard is painted blue", kind: "learned", project: s.proj });
    await seed.close();
    const d = await startDaemon(s, children);
    const before = await requests(s.home);
    const out = await spawnHook("user-prompt-submit", JSON.stringify({ session_id: "d-1", cwd: s.proj, hook_event_name: "UserPromptSubmit", prompt: PROMPT }), { ...s.env, MEM_NO_DAEMON: "0" });
    assert.equal(out.code, 0, out.stderr);
    const printed = (JSON.parse(out.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.ok(printed.includes("advisory locks"));
    assert.equal((await requests(s.home)) - before, 2, "the prompt went to the daemon (and this status)");
    const project = resolveProject(s.proj).id;
    const db = openDb(join(s.home, "mem.sqlite"));
    try {
      await until(async () => promptRuns(db, { project, limit: 5, offset: 0 }).total === 1);
      const run = promptRuns(db, { project, limit: 5, offset: 0 }).runs[0]!;
      assert.equal(run.hook, "prompt");
      assert.equal(run.session, "d-1");
      assert.equal(run.mode, "bm25");
      assert.ok(run.ms !== null && run.ms > 0 && run.ms < 5_000, String(run.ms));
      assert.equal(run.injected, printed);
      assert.deepEqual(run.candidates.map((c) => c.fate).sort(), ["floor", "injected"]);

      // The explorer shows the daemon's run.
      const app = openApp(s.env);
      const ui = await startUi({ ctx: uiContext(app, resolveProject(s.proj), s.proj), token: "D".repeat(43), port: 0, log: () => undefined });
      try {
        const page = await (await fetch(`http://127.0.0.1:${ui.port}/${"D".repeat(43)}/prompt?id=${run.id}`)).text();
        assert.ok(page.includes(`<pre>${escapeHtml(printed)}</pre>`));
        assert.match(page, /data-fate="floor"/);
      } finally {
        await ui.close();
        await app.close();
      }
    } finally {
      db.close();
      await ask(s.home, { op: "stop" }, 2_000);
      await until(async () => d.exitCode !== null);
    }
  });
});
