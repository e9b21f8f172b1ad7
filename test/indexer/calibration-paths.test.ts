/**
 * Fusion's calibration of the vector leg (indexer/calibrate-step.ts) is made on every path that
 * makes vectors, not only by `mem index`: a store built by the daemon alone, `mem reindex` for a
 * project of captured memories only, `mem rebuild` (which also drops the calibrations of the
 * tables it drops). It is made again when the project grew by more than a fifth, and left alone
 * (nothing embedded, nothing read) when nothing changed. A real daemon, a loopback Ollama.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { ask } from "../../src/daemon/client.cjs";
import { MemoryService } from "../../src/service/memory.js";
import { openDb } from "../../src/store/db.js";
import { calibrationsOf } from "../../src/store/fusion-calibration.js";
import { daemonSandbox, startDaemon } from "../helpers/daemon.js";
import { startFakeOllama } from "../helpers/fake-ollama.js";
import { BIN } from "../helpers/mem-cli.js";
import { runChild } from "../helpers/run-child.js";
import { until } from "../helpers/until.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-calpaths-")));
const kids: ChildProcess[] = [];
after(() => {
  for (const c of kids) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(tmp, { recursive: true, force: true });
});

const SUBJECTS = ["billing", "ingest", "search", "auth", "export", "scheduler", "gateway", "reports", "mailer", "uploads", "audit", "metrics", "cache", "payments", "webhooks", "tenants", "invoices", "sessions", "imports", "alerts", "quotas", "backups", "logins", "pricing", "catalog", "ledger", "inbox", "profiles", "tokens", "queues", "media", "orders"];
const STORES = ["postgres", "redis", "sqlite", "kafka", "s3", "clickhouse", "elastic", "dynamo"];
/** A memory per subject, each with words of its own (pseudo-queries need rare words to find their source). */
const memory = (i: number) => `The ${SUBJECTS[i]} service keeps its ${SUBJECTS[i]} records in ${STORES[i % STORES.length]} behind a ${SUBJECTS[(i + 7) % SUBJECTS.length]} proxy with retries.`;

/**
 * Puts memories `from`..`to` (exclusive) into `project` from this process, as another writer would, in one
 * transaction: the daemon's tick sees none or all of them (a tick between two puts would calibrate on a part).
 */
function putMemories(env: NodeJS.ProcessEnv, project: string, from: number, to: number): void {
  const app = openApp({ ...env, MEM_EMBED_ORDER: "none" });
  try {
    const svc = new MemoryService({ db: app.db, config: app.config, projectRoot: () => undefined });
    app.db.transaction(() => {
      for (let i = from; i < to; i++) svc.put({ project, text: memory(i), kind: "decision" });
    }).immediate();
  } finally {
    void app.close();
  }
}

function calibration(home: string, project: string) {
  const db = openDb(join(home, "mem.sqlite"), { readonly: true });
  try {
    const table = db.prepare("SELECT name FROM vec_tables").pluck().get() as string | undefined;
    const vectors = db.prepare("SELECT count(*) FROM vec_rows").pluck().get() as number;
    return { table, vectors, cal: table ? calibrationsOf(db, table, [project])[0] : undefined, all: db.prepare("SELECT table_name, project FROM fusion_calibration ORDER BY table_name").all() as { table_name: string; project: string }[] };
  } finally {
    db.close();
  }
}

test("a store built by the daemon alone is calibrated, again when it grew by a fifth, not when nothing changed", { timeout: 180_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const s = daemonSandbox(join(tmp, "daemon"), { daemon: { idleMs: 300_000, indexEveryMs: 500 }, embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } });
    const env = { ...s.env, MEM_WATCH: "0" };
    const project = s.proj;
    await startDaemon(s, kids);
    putMemories(env, project, 0, 20);
    await until(() => calibration(s.home, project).cal !== undefined, 30_000, "a calibration");
    const first = calibration(s.home, project);
    assert.equal(first.vectors, 20, "every memory embedded");
    assert.equal(first.cal?.chunks, 20);
    assert.ok((first.cal?.queries ?? 0) >= 8, JSON.stringify(first.cal));
    assert.ok(first.cal!.weight >= 0 && first.cal!.weight <= 1);

    // Nothing changed: the daemon's ticks (and a sync's kick) leave the calibration as it was.
    const texts = fake.texts;
    const sync = await ask(s.home, { op: "sync", project, timeoutMs: 5_000 }, 10_000);
    assert.ok(sync.kind === "reply" && sync.reply.ok && sync.reply.done === true, JSON.stringify(sync));
    await new Promise((r) => setTimeout(r, 2_000)); // four ticks
    assert.equal(calibration(s.home, project).cal?.at, first.cal!.at, "not calibrated again");
    assert.equal(fake.texts, texts, "nothing embedded: no pseudo-query asked");

    // 2 more (a tenth): still stands. 4 more (30% in all): calibrated again.
    putMemories(env, project, 20, 22);
    await until(() => calibration(s.home, project).vectors === 22, 30_000, "22 vectors");
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(calibration(s.home, project).cal?.chunks, 20, "a tenth more: the calibration stands");
    putMemories(env, project, 22, 26);
    await until(() => calibration(s.home, project).cal?.chunks === 26, 30_000, "calibrated again at 26 chunks");
    await ask(s.home, { op: "stop" }, 5_000);
  } finally {
    await fake.close();
  }
});

test("`mem reindex` calibrates a project of captured memories only; `mem rebuild` makes the calibration again and drops the dropped tables'", { timeout: 180_000 }, async () => {
  const fake = await startFakeOllama({ dims: 64 });
  try {
    const s = daemonSandbox(join(tmp, "cli"), { embedding: { order: [] }, index: { watch: false } });
    const env = { ...s.env, MEM_WATCH: "0", MEM_NO_DAEMON: "1" };
    const project = s.proj;
    putMemories(env, project, 0, 20);
    assert.equal(calibration(s.home, project).vectors, 0, "written with no provider: no vectors yet");
    writeFileSync(join(s.home, "config.json"), JSON.stringify({ embedding: { order: ["ollama"], ollama: { host: fake.url } }, index: { watch: false } }));
    const mem = async (...args: string[]) => {
      const r = await runChild(process.execPath, [BIN, ...args], { env, cwd: s.proj, timeout: 120_000 });
      assert.equal(r.code, 0, `mem ${args.join(" ")}: ${r.stdout}\n${r.stderr}`);
    };
    await mem("reindex", "-q");
    const afterReindex = calibration(s.home, project);
    assert.equal(afterReindex.vectors, 20);
    assert.equal(afterReindex.cal?.chunks, 20, `calibrated by mem reindex: ${JSON.stringify(afterReindex.all)}`);

    // A calibration of a table the rebuild drops is dropped with it; the table made again is calibrated again.
    const db = openDb(join(s.home, "mem.sqlite"));
    db.prepare("INSERT INTO fusion_calibration (table_name, project, weight, detail, chunks, at) VALUES ('v_gone_model_64', ?, 0.5, '{}', 20, 1)").run(project);
    db.close();
    await mem("rebuild", "-q");
    const afterRebuild = calibration(s.home, project);
    assert.equal(afterRebuild.vectors, 20);
    assert.deepEqual(afterRebuild.all, [{ table_name: afterRebuild.table, project }], "only the rebuilt table's calibration");
    assert.ok(afterRebuild.cal!.at > afterReindex.cal!.at, "made again by the rebuild");
  } finally {
    await fake.close();
  }
});
