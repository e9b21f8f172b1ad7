/**
 * The daemon's background vector step and an index run never write the vector tables together:
 * while another process holds `index.lock`, a memory put through the daemon is searchable by BM25
 * at once but gets no vector; once the lock is let go, the next tick embeds it. Real daemon, real
 * stores, a fake Ollama on loopback.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import { openDb } from "../../src/store/db.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { lockHolder } from "../helpers/lock-holder.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-daemon-lock-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

test("the daemon embeds a put only once no index run holds index.lock", { timeout: 60_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const box = daemonSandbox(tmp, { daemon: { idleMs: 60_000, indexEveryMs: 200 }, embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } });
    const { home: h, proj } = box;
    const holder = await lockHolder(h);
    children.push(holder.child);
    await startDaemon(box, children);
    const put = await ask(h, { op: "put", cwd: proj, text: "The nightly backup job writes to the cold-storage bucket at 02:00." }, 10_000);
    assert.ok(put.kind === "reply" && put.reply.ok, JSON.stringify(put));
    const found = await ask(h, { op: "search", cwd: proj, text: "nightly backup bucket", mode: "bm25" }, 10_000);
    assert.ok(found.kind === "reply" && found.reply.ok && (found.reply as unknown as { results: unknown[] }).results.length === 1, "searchable by BM25 at once");

    const db = openDb(join(h, "mem.sqlite"), { readonly: true });
    const vectors = () => db.prepare("SELECT count(*) FROM vec_rows").pluck().get() as number;
    await new Promise((r) => setTimeout(r, 1_500)); // seven ticks
    assert.equal(vectors(), 0, "no vector while another run holds the lock");

    holder.release();
    await until(() => vectors() === 1, 60_000);
    db.close();
    await ask(h, { op: "stop" }, 2_000);
  } finally {
    await fake.close();
  }
});
