import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { currentTarget } from "../../src/install/target.js";
import { commandHandlerFor, MEM_HOOKS, SH } from "../../src/install/hooks.js";
import { withCaCertsBack as daemonEnv } from "../../src/hooks/ca-env.js";

const WRAPPER = fileURLToPath(new URL("../../../bin/mem-hook.sh", import.meta.url));
const show = "process.stdout.write(JSON.stringify([process.env.NODE_EXTRA_CA_CERTS ?? null, process.env.MEM_NODE_EXTRA_CA_CERTS ?? null, process.argv.slice(1)]))";

test("mem install goes through bin/mem-hook.sh only where NODE_EXTRA_CA_CERTS is set, and never on Windows", () => {
  assert.equal(currentTarget({ PATH: "/usr/bin" }, "linux").caWrapper, undefined);
  assert.equal(currentTarget({ NODE_EXTRA_CA_CERTS: "" }, "linux").caWrapper, undefined);
  assert.match(currentTarget({ NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" }, "darwin").caWrapper ?? "", /bin[\\/]mem-hook\.sh$/);
  assert.equal(currentTarget({ NODE_EXTRA_CA_CERTS: "C:\\corp-ca.pem" }, "win32").caWrapper, undefined);
});

test("mem install sends the hot hooks (a prompt, a tool call, a stop) through bin/mem-hook.sh's curl client, the others to node; none on Windows", () => {
  const linux = currentTarget({ PATH: "/usr/bin" }, "linux");
  assert.match(linux.hookClient ?? "", /bin[\\/]mem-hook\.sh$/);
  const shape = (name: string) => {
    const h = commandHandlerFor(MEM_HOOKS.find((x) => x.name === name)!, linux);
    return [h.command, h.args.length];
  };
  for (const hot of ["user-prompt-submit", "post-tool-use", "post-tool-use-failure", "stop", "subagent-stop"]) assert.deepEqual(shape(hot), [SH, 5], hot);
  for (const cold of ["session-start", "pre-compact", "session-end"]) assert.deepEqual(shape(cold), [linux.node, 3], cold);
  assert.equal(currentTarget({ PATH: "C:\\bin" }, "win32").hookClient, undefined);
  assert.equal(currentTarget({ NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" }, "linux").hookClient, undefined, "the CA wrapper already takes every hook through the script");
});

test("bin/mem-hook.sh moves NODE_EXTRA_CA_CERTS aside, passes the arguments through untouched, and leaves other environments alone", { skip: process.platform === "win32" }, () => {
  const run = (env: NodeJS.ProcessEnv) => JSON.parse(execFileSync("/bin/sh", [WRAPPER, process.execPath, "-e", show, "a b", "$HOME", "*"], { env: { PATH: process.env.PATH, ...env } }).toString()) as unknown[];
  assert.deepEqual(run({ NODE_EXTRA_CA_CERTS: "/etc/corp ca.pem" }), [null, "/etc/corp ca.pem", ["a b", "$HOME", "*"]]);
  assert.deepEqual(run({}), [null, null, ["a b", "$HOME", "*"]]);
});

test("the daemon a hook starts gets NODE_EXTRA_CA_CERTS back; a value the hook still has wins", () => {
  assert.deepEqual(daemonEnv({ PATH: "/bin", MEM_NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" }), { PATH: "/bin", NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" });
  assert.deepEqual(daemonEnv({ PATH: "/bin", NODE_EXTRA_CA_CERTS: "/a.pem", MEM_NODE_EXTRA_CA_CERTS: "/b.pem" }), { PATH: "/bin", NODE_EXTRA_CA_CERTS: "/a.pem" });
  assert.deepEqual(daemonEnv({ PATH: "/bin" }), { PATH: "/bin" });
});
