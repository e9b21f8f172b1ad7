/**
 * Of concurrent callers, exactly one starts the background re-index. The marker is created
 * exclusively and then written: a caller that meets it created but not yet written (empty, or cut
 * short) must take it for another's, not for a stale marker to remove and claim again (under load,
 * two queries each started a re-index that way).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { refreshLockPath, startRefresh } from "../../src/freshness/refresh.js";
import { endProcessesUnder } from "../helpers/daemon.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-refresh-marker-"));
after(async () => {
  await endProcessesUnder(tmp); // the re-index a test started (detached) would write its store into the folder as it goes
  rmSync(tmp, { recursive: true, force: true });
});

const home = (name: string) => {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};

test("a marker just created and not yet written is another caller's: nothing starts, the marker is kept", () => {
  for (const [i, partial] of ["", '{"pid": 12', "\n"].entries()) {
    const h = home(`h${i}`);
    writeFileSync(refreshLockPath(h), partial, { mode: 0o600 });
    assert.equal(startRefresh(h, {}, [], Date.now()), "running", JSON.stringify(partial));
    assert.equal(readFileSync(refreshLockPath(h), "utf8"), partial, "left for its writer");
  }
});

test("garbage older than the cooldown is stale: it is taken over", () => {
  const h = home("old");
  const path = refreshLockPath(h);
  writeFileSync(path, "garbage", { mode: 0o600 });
  const old = new Date(Date.now() - 60_000);
  utimesSync(path, old, old);
  // The child re-index runs in this data home: it finds no roots and ends at once.
  assert.equal(startRefresh(h, { ...process.env, MEM_HOME: h, MEM_EMBED_ORDER: "none", MEM_WATCH: "0" }, [], Date.now()), "started");
  assert.match(readFileSync(path, "utf8"), /"pid":\d+/);
});
