import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ask, Dial } from "../../src/daemon/client.cjs";
import { socketPath } from "../../src/daemon/paths.cjs";
import { until } from "../helpers/until.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-client-"));
// Every server and every connection is closed at the end, whatever failed: an open one would keep this file from ever exiting.
const servers: Server[] = [];
const conns = new Set<Socket>();
after(() => {
  for (const c of conns) c.destroy();
  for (const s of servers) s.close();
  rmSync(tmp, { recursive: true, force: true });
});
let n = 0;

/** A loopback server on a data home's socket that answers each request line with `reply(line)` (undefined: say nothing). */
async function serverFor(reply: (line: string) => string | undefined): Promise<{ home: string; server: Server; lines: string[]; closedSilent: () => number }> {
  const home = join(tmp, `h${n++}`);
  mkdirSync(home);
  const lines: string[] = [];
  let silent = 0;
  const server = createServer((conn: Socket) => {
    conns.add(conn);
    conn.once("close", () => conns.delete(conn));
    let buf = "";
    conn.setEncoding("utf8");
    conn.on("error", () => undefined);
    conn.on("data", (d: string) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl < 0) return;
      lines.push(buf.slice(0, nl));
      const r = reply(buf.slice(0, nl));
      if (r !== undefined) conn.end(r);
    });
    conn.on("close", () => buf === "" && silent++);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(socketPath(home), r));
  return { home, server, lines, closedSilent: () => silent };
}

describe("daemon client", () => {
  test("a connection dialled before the request is known carries it once the request is ready", async () => {
    const s = await serverFor((l) => `${JSON.stringify({ ok: true, echo: JSON.parse(l) })}\n`);
    const dial = new Dial(s.home);
    await until(() => dial.connected, 30_000, "the dial connected"); // connected long before the request
    const r = await ask(s.home, { op: "ping", n: 1 }, 2_000, dial);
    assert.deepEqual(r, { kind: "reply", reply: { ok: true, echo: { op: "ping", n: 1 } } });
    s.server.close();
  });

  test("a request on a connection still being made waits for it", async () => {
    const s = await serverFor((l) => `${JSON.stringify({ ok: true, echo: JSON.parse(l) })}\n`);
    const r = await ask(s.home, { op: "ping", n: 2 }, 2_000, new Dial(s.home));
    assert.equal(r.kind, "reply");
    assert.deepEqual(s.lines, ['{"op":"ping","n":2}']);
    s.server.close();
  });

  test("no daemon: absent, whether the failed connect is noticed before or during the request", async () => {
    const home = join(tmp, "nobody");
    const early = new Dial(home);
    await sleep(30);
    assert.equal(early.failure?.code, "ENOENT");
    assert.deepEqual(await ask(home, { op: "ping" }, 2_000, early), { kind: "absent" });
    assert.deepEqual(await ask(home, { op: "ping" }, 2_000), { kind: "absent" });
  });

  test("a daemon that does not answer within the budget: timeout; a garbled answer: error", async () => {
    const mute = await serverFor(() => undefined);
    const t0 = performance.now();
    assert.deepEqual(await ask(mute.home, { op: "ping" }, 100), { kind: "timeout" });
    assert.ok(performance.now() - t0 < 10_000, "ended by the budget: the mute daemon never answers");
    mute.server.close();
    const garbled = await serverFor(() => "not json\n");
    assert.deepEqual(await ask(garbled.home, { op: "ping" }, 2_000), { kind: "error", error: "malformed reply" });
    garbled.server.close();
  });

  test("a dial hung up unused sends nothing", async () => {
    const s = await serverFor(() => "{}\n");
    const dial = new Dial(s.home);
    await until(() => dial.connected, 30_000, "the dial connected");
    dial.hangUp();
    await until(() => s.closedSilent() === 1, 30_000, "the server saw the connection close"); // not a fixed sleep: a loaded machine is late
    assert.deepEqual(s.lines, []);
    assert.equal(s.closedSilent(), 1);
    assert.equal((await ask(s.home, { op: "ping" }, 2_000, dial)).kind, "error"); // a hung-up dial cannot be reused
    s.server.close();
  });
});
