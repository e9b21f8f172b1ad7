/** The daemon's line in `mem doctor`: its status reply read as another process's (hostile) answer, and the RSS threshold. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { daemonCheck, daemonFigures, type DaemonSeen } from "../../src/health/daemon.js";

const MiB = 2 ** 20;
const memory = { rss: 400 * MiB, heapUsed: 60 * MiB, vectorBytes: 293 * MiB };

test("daemonFigures: only whole, non-negative byte counts are taken", () => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ["well-formed", { ok: true, pid: 42, memory }, true],
    ["no memory (an older daemon)", { ok: true, pid: 42 }, false],
    ["memory not an object", { ok: true, pid: 42, memory: "lots" }, false],
    ["memory an array", { ok: true, pid: 42, memory: [1, 2, 3] }, false],
    ["a string where a number belongs", { ok: true, pid: 42, memory: { ...memory, rss: "400" } }, false],
    ["negative", { ok: true, pid: 42, memory: { ...memory, heapUsed: -1 } }, false],
    ["not finite", { ok: true, pid: 42, memory: { ...memory, rss: Number.POSITIVE_INFINITY } }, false],
    ["a fraction", { ok: true, pid: 42, memory: { ...memory, vectorBytes: 1.5 } }, false],
    ["no pid", { ok: true, memory }, false],
    ["with the rows' file", { ok: true, pid: 42, memory: { ...memory, vectorFileBytes: 734 * MiB } }, true],
    ["a malformed rows' file size is left out, the rest kept", { ok: true, pid: 42, memory: { ...memory, vectorFileBytes: "734" } }, true],
  ];
  for (const [name, reply, ok] of cases) assert.equal(daemonFigures(reply) !== undefined, ok, name);
  assert.deepEqual(daemonFigures({ ok: true, pid: 42, memory }), { pid: 42, ...memory });
  assert.deepEqual(daemonFigures({ ok: true, pid: 42, memory: { ...memory, vectorFileBytes: 734 * MiB } }), { pid: 42, ...memory, vectorFileBytes: 734 * MiB });
  assert.deepEqual(daemonFigures({ ok: true, pid: 42, memory: { ...memory, vectorFileBytes: -5 } }), { pid: 42, ...memory });
});

test("daemonCheck: each answer, and the RSS against daemon.rssWarnMB", () => {
  const reply = (m: Record<string, unknown> | undefined): DaemonSeen => {
    const r = { ok: true as const, pid: 42, ...(m ? { memory: m } : {}) };
    return { result: { kind: "reply", reply: r }, figures: daemonFigures(r) };
  };
  const cases: [string, DaemonSeen, number, "ok" | "warn", RegExp, boolean][] = [
    ["not running", { result: { kind: "absent" }, figures: undefined }, 1536, "ok", /^not running/, false],
    ["slow", { result: { kind: "timeout" }, figures: undefined }, 1536, "warn", /did not answer its status within 1000 ms/, false],
    ["refused", { result: { kind: "refused", reason: "owned by uid 7" }, figures: undefined }, 1536, "warn", /not trusted: owned by uid 7/, false],
    ["an error reply", { result: { kind: "reply", reply: { ok: false, error: "boom" } }, figures: undefined }, 1536, "warn", /with an error: boom/, false],
    ["an older daemon", reply(undefined), 1536, "warn", /says nothing of its memory/, true],
    ["under", reply(memory), 1536, "ok", /^pid 42: RSS 400 MB \(V8 heap 60 MB; vector copies 293 MB\)$/, false],
    ["just at the threshold", reply(memory), 400, "ok", /^pid 42: RSS 400 MB/, false],
    ["a code copy's rows in a file", reply({ ...memory, vectorFileBytes: 734 * MiB }), 1536, "ok", /^pid 42: RSS 400 MB \(V8 heap 60 MB; vector copies 293 MB; their int8 rows in a file 734 MB\)$/, false],
    ["no rows' file", reply({ ...memory, vectorFileBytes: 0 }), 1536, "ok", /^pid 42: RSS 400 MB \(V8 heap 60 MB; vector copies 293 MB\)$/, false],
    ["over", reply({ ...memory, rss: 1600 * MiB }), 1536, "warn", /^pid 42: RSS 1,600 MB .* is over daemon\.rssWarnMB \(1,536 MB\)$/, true],
  ];
  for (const [name, seen, warnMB, status, detail, fix] of cases) {
    const c = daemonCheck(seen, warnMB, 1_000);
    assert.equal(c.name, "daemon", name);
    assert.equal(c.status, status, name);
    assert.match(c.detail, detail, name);
    assert.equal(c.fix !== undefined, fix, name);
  }
  assert.match(daemonCheck(reply({ ...memory, rss: 1600 * MiB }), 1536, 1_000).fix!, /daemon\.vectorMemoryMB/);
});
