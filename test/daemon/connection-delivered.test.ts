/**
 * The daemon's JSON-line channel (src/daemon/connection.ts): what a reply's `delivered` hook was
 * given runs only once the client has read the reply and closed, never for a client that hung up
 * before the reply or closed with it unread (Linux gives the daemon's side ECONNRESET then).
 * Real Unix sockets, a real client.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { serveConnection } from "../../src/daemon/connection.js";
import { until } from "../helpers/until.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-conn-"));
const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A server answering every request after `delayMs` with `size` characters; counts what was delivered and what was answered. */
async function serverOf(name: string, delayMs: number, size: number) {
  const path = join(tmp, `${name}.sock`);
  const seen = { answered: 0, delivered: 0 };
  const server = createServer((conn) =>
    serveConnection(conn, {
      answer: async (_req, delivered) => {
        await new Promise((r) => setTimeout(r, delayMs));
        delivered(() => seen.delivered++);
        seen.answered++;
        return { ok: true, text: "m".repeat(size) };
      },
      onRequest: () => undefined,
      log: () => undefined,
    }),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, () => r()));
  return { path, seen };
}

test("a client that reads the reply line and closes: delivered", async () => {
  const { path, seen } = await serverOf("reads", 0, 10);
  const line = await new Promise<string>((resolve, reject) => {
    const c = createConnection(path);
    let buf = "";
    c.setEncoding("utf8");
    c.on("error", reject);
    c.on("data", (d: string) => {
      buf += d;
      if (buf.includes("\n")) {
        c.destroy();
        resolve(buf);
      }
    });
    c.write(`${JSON.stringify({ op: "prompt" })}\n`);
  });
  assert.match(line, /"ok":true/);
  await until(() => seen.delivered === 1, 10_000, "delivered");
});

test("a client that hangs up before the reply: not delivered", async () => {
  const { path, seen } = await serverOf("early", 200, 10);
  const c = createConnection(path);
  c.on("error", () => undefined);
  c.write(`${JSON.stringify({ op: "prompt" })}\n`, () => c.destroy());
  await until(() => seen.answered === 1, 10_000, "answered");
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(seen.delivered, 0);
});

for (const size of [10, 300_000]) {
  test(`a client that closes with the reply unread (${size.toLocaleString("en")} characters): not delivered`, { skip: process.platform !== "linux" ? "told by Linux (ECONNRESET)" : false }, async () => {
    const { path, seen } = await serverOf(`unread-${size}`, 0, size);
    const c = createConnection(path);
    c.on("error", () => undefined);
    c.pause(); // reads nothing: the reply waits in its socket
    c.write(`${JSON.stringify({ op: "prompt" })}\n`);
    await until(() => seen.answered === 1, 10_000, "answered");
    await new Promise((r) => setTimeout(r, 300)); // the reply written to the client's socket by now (or as much as fits)
    c.destroy();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(seen.delivered, 0);
  });
}
