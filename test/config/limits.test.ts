import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { runChild } from "../helpers/run-child.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "mem-config-limits-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

function home(): string {
  const h = join(tmp, `h${n++}`);
  mkdirSync(h);
  return h;
}

/** Runs `fn`, which must throw a ConfigError, and returns its message. */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err.message;
  }
  assert.fail("expected a ConfigError");
}

describe("config.json that is not an ordinary small file", () => {
  test("a FIFO config.json is refused at once with a clear error, not waited on", { skip: process.platform === "win32" && "no FIFOs" }, async () => {
    const h = home();
    execFileSync("mkfifo", [join(h, "config.json")]);
    const r = await runChild(process.execPath, [BIN, "status"], { env: { PATH: process.env.PATH, HOME: tmp, MEM_HOME: h }, timeout: 20_000 });
    assert.equal(r.signal, null, `mem status hung (killed after ${r.ms} ms)`);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /config\.json.*not a regular file \(a FIFO\)/);
  });

  test("a config.json over 1 MiB is refused without being parsed", () => {
    const h = home();
    writeFileSync(join(h, "config.json"), `{"query": {"k": 3}}${" ".repeat(2 * 1024 * 1024)}`);
    assert.match(configError(() => loadConfig(join(h, "config.json"), {})), /config\.json.*too large \(\d+ bytes, limit 1048576\)/);
  });

  test("a config.json that is a directory is refused with a ConfigError naming it", () => {
    const h = home();
    mkdirSync(join(h, "config.json"));
    assert.match(configError(() => loadConfig(join(h, "config.json"), {})), /config\.json.*not a regular file \(a directory\)/);
  });
});
