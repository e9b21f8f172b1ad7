/**
 * A settings file its owner made read-only is never replaced or removed by mem install or
 * uninstall (a rename in its folder would get past the mode): refused with the fix, every file
 * left byte for byte, nothing half installed. Through a symlink, its target's mode counts.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-install-ro-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
function box() {
  const dir = join(tmp, `b${++n}`);
  const claude = join(dir, "claude");
  mkdirSync(claude, { recursive: true });
  return { dir, claude, env: { ...cleanEnv(claude), HOME: dir, MEM_HOME: join(dir, "mem") } };
}

describe("read-only settings", { skip: process.platform === "win32" ? "POSIX modes" : false }, () => {
  test("install: a read-only settings.json is refused with the fix; neither it nor .claude.json is written", async () => {
    const b = box();
    const settings = join(b.claude, "settings.json");
    writeFileSync(settings, '{"model": "opus"}\n');
    chmodSync(settings, 0o444);
    const r = await runMem(["install"], { env: b.env });
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /refusing to change .*settings\.json: it is read-only \(mode 444\); nothing was written\. Make it writable \(chmod u\+w /);
    assert.equal(readFileSync(settings, "utf8"), '{"model": "opus"}\n');
    assert.throws(() => readFileSync(join(b.claude, ".claude.json")), /ENOENT/, "the MCP server not registered either");
  });

  test("install: a read-only .claude.json is refused before settings.json is written; uninstall leaves a read-only file too", async () => {
    const b = box();
    const settings = join(b.claude, "settings.json");
    const mcp = join(b.claude, ".claude.json");
    writeFileSync(settings, "{}\n");
    writeFileSync(mcp, '{"numStartups": 3}\n');
    chmodSync(mcp, 0o400);
    const r = await runMem(["install"], { env: b.env });
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /\.claude\.json: it is read-only \(mode 400\)/);
    assert.equal(readFileSync(settings, "utf8"), "{}\n", "settings.json untouched: nothing half installed");
    chmodSync(mcp, 0o600);
    assert.equal((await runMem(["install", "-q"], { env: b.env })).code, 0);
    const installed = readFileSync(settings, "utf8");
    chmodSync(settings, 0o444);
    const u = await runMem(["uninstall"], { env: b.env });
    assert.equal(u.code, 1, show(u));
    assert.equal(readFileSync(settings, "utf8"), installed, "mem's hooks stay in the read-only file");
  });

  test("through a symlink, the target's mode counts", async () => {
    const b = box();
    const real = join(b.dir, "dotfiles-settings.json");
    writeFileSync(real, '{"model": "opus"}\n');
    chmodSync(real, 0o444);
    symlinkSync(real, join(b.claude, "settings.json"));
    const r = await runMem(["install", "--no-mcp"], { env: b.env });
    assert.equal(r.code, 1, show(r));
    assert.equal(readFileSync(real, "utf8"), '{"model": "opus"}\n');
  });
});
