import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { curlCheck, hookChecks } from "../../src/health/hooks.js";
import { hasCommand } from "../helpers/has-command.js";
import { currentTarget } from "../../src/install/target.js";
import { installToFile, type Where } from "../../src/install/files.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-doctor-hooks-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
/** What the hook client check says on this machine: curl is there, or not. */
const CURL = hasCommand("curl") ? "ok" : "warn";

/** A HOME and a project directory of their own (a .git marks the project's top level). */
function where(env: Record<string, string> = {}): Where & { home: string; repo: string } {
  const dir = join(tmp, `w${n++}`);
  const home = join(dir, "home");
  const repo = join(dir, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
  return { env: { HOME: home, PATH: process.env.PATH ?? "", ...env }, cwd: repo, home, repo };
}

test("doctor on hooks: none installed is a warning that points at mem install", () => {
  const w = where();
  const checks = hookChecks(w, "linux");
  assert.deepEqual(checks.map((c) => [c.name, c.status]), [["hooks", "warn"]]);
  assert.match(checks[0]!.fix!, /mem install --scope user/);
});

test("doctor on hooks: installed by this checkout is ok, per scope", () => {
  const w = where();
  installToFile({ scope: "user", where: w, target: currentTarget(w.env, "linux") });
  installToFile({ scope: "local", where: w, target: currentTarget(w.env, "linux") });
  assert.deepEqual(hookChecks(w, "linux").map((c) => [c.name, c.status]), [["hooks (user)", "ok"], ["hooks (local)", "ok"], ["hook client", CURL]]);
});

test("doctor on hooks: a missing event, or installed without the wrapper where NODE_EXTRA_CA_CERTS is set, is a warning to reinstall", () => {
  const w = where();
  const r = installToFile({ scope: "project", where: w, target: currentTarget(w.env, "linux") });
  const settings = JSON.parse(readFileSync(r.file, "utf8")) as { hooks: Record<string, unknown> };
  delete settings.hooks.PreCompact;
  writeFileSync(r.file, JSON.stringify(settings));
  const [missing] = hookChecks(w, "linux");
  assert.equal(missing!.status, "warn");
  assert.match(missing!.detail, /missing PreCompact/);
  assert.equal(missing!.fix, "`mem install --scope project`");

  const ca = where({ NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" });
  installToFile({ scope: "user", where: ca, target: currentTarget({}, "linux") }); // installed from a shell without it: only the hot hooks through the script
  const [direct] = hookChecks(ca, "linux");
  assert.equal(direct!.status, "warn");
  assert.match(direct!.detail, /3 differ[\s\S]*not through bin\/mem-hook\.sh/);
  installToFile({ scope: "user", where: ca, target: currentTarget(ca.env, "linux") });
  assert.equal(hookChecks(ca, "linux")[0]!.status, "ok");
});

test("doctor on hooks: hooks that run a mem that is gone, or an unreadable settings file, are errors", () => {
  const w = where();
  installToFile({ scope: "user", where: w, target: { node: "/usr/bin/node", bin: join(tmp, "moved", "bin", "mem.cjs") } });
  const [gone] = hookChecks(w, "linux");
  assert.equal(gone!.status, "error");
  assert.match(gone!.detail, /moved[\\/]bin[\\/]mem\.cjs, which is not there/);

  const bad = where();
  mkdirSync(join(bad.repo, ".claude"));
  writeFileSync(join(bad.repo, ".claude", "settings.json"), '{ "hooks": ');
  const [broken] = hookChecks(bad, "linux");
  assert.equal(broken!.name, "hooks (project)");
  assert.equal(broken!.status, "error");
});

test("doctor on the hook client: curl with Unix sockets is ok; no curl, or one without them, is a warning (the hot hooks then start Node)", { skip: process.platform === "win32" }, () => {
  const dir = join(tmp, `curl${n++}`);
  mkdirSync(dir, { recursive: true });
  const none = curlCheck({ PATH: dir });
  assert.deepEqual([none.name, none.status], ["hook client", "warn"]);
  assert.match(none.detail, /no curl on PATH/);
  const fake = (features: string) => {
    writeFileSync(join(dir, "curl"), `#!/bin/sh\nprintf 'curl 7.29.0 (x86_64-redhat-linux-gnu) libcurl/7.29.0\\nProtocols: http https\\nFeatures: ${features}\\n'\n`);
    chmodSync(join(dir, "curl"), 0o755);
    return curlCheck({ PATH: dir });
  };
  const old = fake("IPv6 Largefile SSL libz");
  assert.equal(old.status, "warn");
  assert.match(old.detail, /^curl 7\.29\.0 cannot use Unix sockets/);
  const nofind = fake("IPv6 Largefile SSL UnixSockets libz");
  assert.equal(nofind.status, "warn");
  assert.match(nofind.detail, /start Node each time: no find on PATH/);
  symlinkSync(execFileSync("/bin/sh", ["-c", "command -v find"]).toString().trim(), join(dir, "find"));
  const good = fake("IPv6 Largefile SSL UnixSockets libz");
  assert.equal(good.status, "ok");
  assert.match(good.detail, /^curl 7\.29\.0 with Unix sockets/);
  // A data home the script would not trust: the hot hooks start Node, and doctor says why.
  const home = join(tmp, `home${n++}`);
  mkdirSync(home, { mode: 0o700 });
  const withHome = (h: string) => curlCheck({ PATH: dir, MEM_HOME: h });
  assert.equal(withHome(home).status, "ok");
  chmodSync(home, 0o777);
  const open = withHome(home);
  assert.equal(open.status, "warn");
  assert.match(open.detail, /start Node each time: others may write to the data home .* \(mode 777\)/);
  assert.equal(open.fix, `chmod 700 ${home}`);
  chmodSync(home, 0o700);
  const link = join(tmp, `link${n++}`);
  symlinkSync(home, link);
  assert.match(withHome(`${link}/`).detail, /is a symlink/);
  // A data home too long for a socket address: the daemon's socket.path tells the script where its socket is.
  assert.equal(withHome(join(tmp, "x".repeat(120))).status, "ok");
});
