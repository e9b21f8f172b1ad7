/**
 * A put acknowledged by the daemon is durable: `kill -9` right after the acknowledgement, and
 * after a restart the memory is there, searchable, and gets its vector (`mem sync` waits for it;
 * a vector-only search finds it). A memory put by the CLI while the daemon runs gets its vector
 * from the daemon too. Embeddings come from a fake Ollama.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { ask } from "../../src/daemon/client.cjs";
import type { Memory } from "../../src/service/types.js";
import { openDb } from "../../src/store/db.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-durable-")));
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});


describe("durability of a put through the daemon", () => {
  test("kill -9 right after the acknowledgement: after a restart the memory is there, searchable, and gets its vector", async () => {
    const fake = await startFakeOllama({ dims: 64 });
    try {
      // The background indexing would run only after a minute: the vector cannot arrive before the kill.
      const box = daemonSandbox(tmp, { daemon: { idleMs: 60_000, indexEveryMs: 60_000 }, embedding: { order: ["ollama"], ollama: { host: fake.url } } });
      const { home: h, proj } = box;
      const op = async (req: Record<string, unknown>) => {
        const r = await ask(h, req, 10_000);
        assert.ok(r.kind === "reply" && r.reply.ok, JSON.stringify(r));
        return r.reply as { ok: true; [k: string]: unknown };
      };

      const first = await startDaemon(box, children);
      const exited = new Promise((r) => first.once("exit", r));
      const put = await ask(h, { op: "put", cwd: proj, text: "The nightly backup job writes to the cold-storage bucket at 02:00.", kind: "decision" }, 10_000);
      first.kill("SIGKILL"); // right after the acknowledgement
      await exited;
      assert.ok(put.kind === "reply" && put.reply.ok, JSON.stringify(put));
      const id = (put.reply.memory as Memory).id;
      const db = openDb(join(h, "mem.sqlite"), { readonly: true });
      const vectors = () => db.prepare("SELECT count(*) FROM vec_rows v JOIN chunks c ON c.id = v.chunk_id WHERE c.text LIKE '%cold-storage bucket%'").pluck().get() as number;
      assert.equal(vectors(), 0, "no vector yet: it comes after the acknowledgement");

      const second = await startDaemon(box, children);
      assert.equal(((await op({ op: "get", id })).memory as Memory).text, "The nightly backup job writes to the cold-storage bucket at 02:00.");
      const bm25 = await op({ op: "search", cwd: proj, text: "nightly backup bucket", mode: "bm25" });
      assert.equal((bm25.results as { memoryId: string }[])[0]?.memoryId, id, "searchable after the restart");

      const cliEnv = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: h, MEM_NO_DAEMON: "0" };
      const sync = await runMem(["sync", "--json", "--timeout", "20"], { env: cliEnv, cwd: proj });
      assert.equal(sync.code, 0, show(sync));
      const report = jsonOf<{ via: string; done: boolean; pending: number; chunks: number; table: string }>(sync);
      assert.deepEqual([report.via, report.done, report.pending, report.table], ["daemon", true, 0, "v_ollama_nomic_embed_text_64_p03aa22a9"]);
      assert.equal(vectors(), 1, "the vector arrived");
      const byVector = await op({ op: "search", cwd: proj, text: "The nightly backup job writes to the cold-storage bucket at 02:00.", mode: "vector" });
      assert.equal((byVector.results as { memoryId: string }[])[0]?.memoryId, id, "found by its vector alone");

      // Put by the CLI while the daemon runs: the CLI tells the daemon, whose indexing embeds it.
      const cli = await runMem(["remember", "Staging deploys need the release-captain flag.", "--kind", "learned"], { env: cliEnv, cwd: proj });
      assert.equal(cli.code, 0, show(cli));
      const vectorsOf = (word: string) => db.prepare("SELECT count(*) FROM vec_rows v JOIN chunks c ON c.id = v.chunk_id WHERE c.text LIKE ?").pluck().get(`%${word}%`) as number;
      await until(() => vectorsOf("release-captain") === 1);

      // Killed again right after a put, now that the table exists: the next daemon catches up at start, unasked.
      const killed = new Promise((r) => second.once("exit", r));
      await op({ op: "put", cwd: proj, text: "Log retention is ninety days for the audit-trail index.", kind: "decision" });
      second.kill("SIGKILL");
      await killed;
      assert.equal(vectorsOf("audit-trail"), 0);
      await startDaemon(box, children);
      await until(() => vectorsOf("audit-trail") === 1);
      db.close();
      await op({ op: "stop" });
    } finally {
      await fake.close();
    }
  });
});
