/**
 * The curl hook client reads its budget from the data home's hook.budget once it finds the
 * daemon's HTTP socket (bin/mem-hook.sh). The daemon writes the budget whole, before the socket
 * exists: a hook never reads a file just emptied to be written again (it would wait 0.25 s, not
 * the daemon's budget; seen in a CI run, `hook.budget` read as ""). Real sockets, real files.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { HookHttp } from "../../src/daemon/hook-http.js";

const dir = mkdtempSync(join(tmpdir(), "mem-budget-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the budget file is whole and current when the socket starts listening, and no temporary file is left", { skip: process.platform === "win32" }, async () => {
  const budget = join(dir, "hook.budget");
  const sock = join(dir, "hook.sock");
  writeFileSync(budget, "0.7\n", { mode: 0o600 }); // the last daemon's
  const http = new HookHttp({ answer: async () => ({}), budgetMs: 2_000, pretoolBudgetMs: 200, onRequest: () => undefined, hookLog: () => undefined });
  let atListen: string | undefined;
  // The moment the socket is bound, before listen() goes on: what a hook finding the socket would read.
  (http as unknown as { server: Server }).server.once("listening", () => {
    atListen = readFileSync(budget, "utf8");
  });
  await http.listen(sock, budget);
  try {
    assert.equal(atListen, "1.5\n", "the new budget (2,000 ms capped at the Node hook's 1.5 s), whole, before the socket listens");
    assert.equal(statSync(budget).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir).sort(), ["hook.budget", "hook.sock"]);
  } finally {
    http.close();
  }
});
