import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { hookLog } from "../../src/hooks/log.cjs";
import { openDb } from "../../src/store/db.js";
import { ensurePrivateDir } from "../../src/util/private-dir.cjs";
import { runChild } from "../helpers/run-child.js";

const BIN = join(fileURLToPath(new URL("../../../", import.meta.url)), "bin", "mem.cjs");
const tmp = mkdtempSync(join(tmpdir(), "mem-private-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const mode = (p: string) => statSync(p).mode & 0o777;

describe("the data home is private to its owner", { skip: process.platform === "win32" ? "no POSIX modes" : false }, () => {
  test("created 0700 by whoever creates it first: the store, the hook log, the daemon's lock", () => {
    ensurePrivateDir(join(tmp, "a", "deep", "home"));
    assert.equal(mode(join(tmp, "a", "deep", "home")), 0o700);
    ensurePrivateDir(join(tmp, "a", "deep", "home")); // again: no error

    const db = openDb(join(tmp, "store-home", "mem.sqlite"));
    db.close();
    assert.equal(mode(join(tmp, "store-home")), 0o700);

    hookLog({ MEM_HOME: join(tmp, "log-home") }, "a line");
    assert.equal(mode(join(tmp, "log-home")), 0o700);
  });

  test("an existing directory keeps its mode, and mem doctor warns with the fix", async () => {
    const home = join(tmp, "shared-home");
    mkdirSync(home);
    chmodSync(home, 0o755);
    ensurePrivateDir(home);
    assert.equal(mode(home), 0o755, "a directory the user made is theirs to set");

    const env = { PATH: process.env.PATH, HOME: tmp, MEM_HOME: home, MEM_EMBED_ORDER: "none", CLAUDE_CONFIG_DIR: join(tmp, "claude") };
    const r = await runChild(process.execPath, [BIN, "doctor", "--json"], { env });
    assert.equal(r.code, 0, r.stderr);
    const check = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] }).checks.find((c) => c.name === "data home");
    assert.equal(check?.status, "warn", JSON.stringify(check));
    assert.match(check!.detail, /open to other users \(mode 755\)/);
    assert.equal(check!.fix, `chmod 700 ${home}`);

    chmodSync(home, 0o700);
    const ok = await runChild(process.execPath, [BIN, "doctor", "--json"], { env });
    assert.equal((JSON.parse(ok.stdout) as { checks: { name: string; status: string }[] }).checks.find((c) => c.name === "data home")?.status, "ok");
  });
});
