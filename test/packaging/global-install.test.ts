/**
 * The package as a user installs it: `npm pack` of this checkout (as built), `npm install -g` of the
 * tarball into a temporary prefix with nothing but the npm registry, then, from another directory
 * and with a fresh HOME, `mem index`, `mem query` (both legs: the bundled transformers.js on a tiny
 * model in the data home's model cache), `mem install`, and the installed hooks run exactly as
 * Claude Code runs them, the prompt's through the daemon they start. Slow (minutes: npm compiles
 * better-sqlite3 when it finds no prebuilt binary); skips when npm or the registry is unreachable.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, test } from "node:test";
import { buildTinyBertModel } from "../../scripts/build-test-model.js";
import { ask } from "../../src/daemon/client.cjs";
import { dataHome } from "../../src/config/paths.cjs";
import { git } from "../helpers/git.js";
import { hasCommand } from "../helpers/has-command.js";
import { REPO } from "../helpers/mem-cli.js";
import { runChild, type ChildResult } from "../helpers/run-child.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-global-")));
const memHomes: string[] = [];
after(async () => {
  for (const h of memHomes) await ask(h, { op: "stop" }, 2_000);
  rmSync(tmp, { recursive: true, force: true });
});

/** What an enclosing `npm test` tells its scripts about this package, which must not steer the npm run here. */
const LIFECYCLE = /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_(local_prefix|global_prefix|prefix)$)/i;

/** This environment for npm (the user's config, cache and registry), without the test runner's and npm test's variables. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!LIFECYCLE.test(k) && k !== "NODE_TEST_CONTEXT" && k !== "NODE_OPTIONS") env[k] = v;
  return env;
}

const show = (r: ChildResult) => `exit ${r.code}${r.signal ? ` (${r.signal})` : ""}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;

async function npm(args: string[], cwd: string, timeoutMs: number): Promise<ChildResult> {
  return runChild("npm", args, { cwd, env: npmEnv(), timeout: timeoutMs, killSignal: "SIGKILL" });
}

/** Why this test cannot run here, if it cannot. */
async function skipReason(): Promise<string | undefined> {
  if (process.platform === "win32") return "the installed bin is a .cmd shim on Windows; this test drives the POSIX layout";
  if (!hasCommand("npm")) return "npm is not on PATH";
  const ping = await npm(["ping", "--fetch-timeout=15000", "--fetch-retries=0"], tmp, 30_000);
  if (ping.code !== 0) {
    const reason = ping.stderr.split("\n").find((l) => /^npm error (code|FetchError|network)/.test(l)) ?? ping.stderr.trim().split("\n")[0] ?? "";
    return `the npm registry is unreachable (npm ping: ${reason.replace(/^npm error /, "").slice(0, 200)})`;
  }
  if (!existsSync(join(REPO, "dist", "vendor", "transformers.js"))) return "dist/vendor/transformers.js is missing: run `npm run build` first";
  return undefined;
}

/** Every file of the installed package outside its node_modules, with size and mtime. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (p === join(dir, "node_modules")) continue;
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else out.push(`${relative(dir, p)} ${s.size} ${s.mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

interface Handler {
  command: string;
  args: string[];
  timeout: number;
}

/**
 * A user elsewhere: a fresh HOME (data home and Claude Code settings in it), a git repository of
 * notes, and `mem` found on PATH in `binDir`; nothing of this checkout's environment steers mem.
 */
class User {
  readonly home: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv = {};
  readonly memHome: string;

  constructor(name: string, binDir: string, extra: NodeJS.ProcessEnv) {
    this.home = join(tmp, name, "home");
    this.project = join(tmp, name, "work", "project");
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.project, { recursive: true });
    git(this.project, "init", "-q");
    cpSync(join(REPO, "examples", "memory"), join(this.project, "memory"), { recursive: true });
    for (const [k, v] of Object.entries(npmEnv())) {
      if (!k.startsWith("MEM_") && !k.startsWith("OLLAMA_") && k !== "XDG_DATA_HOME" && k !== "CLAUDE_CONFIG_DIR") this.env[k] = v;
    }
    Object.assign(this.env, { HOME: this.home, PATH: `${binDir}:${process.env.PATH ?? ""}`, MEM_ALLOW_REMOTE_MODELS: "0", ...extra });
    this.memHome = dataHome(this.env);
    memHomes.push(this.memHome);
  }

  /** `mem ARGS` from the project directory, which must succeed. */
  async mem(args: string[], input = ""): Promise<ChildResult> {
    const r = await runChild("mem", args, { cwd: this.project, env: this.env, input, timeout: 120_000, killSignal: "SIGKILL" });
    assert.equal(r.code, 0, `mem ${args.join(" ")}\n${show(r)}`);
    return r;
  }

  /** `mem install --scope user`, checked; the hooks it wrote, each of which must run `bin`. */
  async install(bin: string): Promise<(event: string, payload: Record<string, unknown>) => Promise<string>> {
    const install = JSON.parse((await this.mem(["install", "--scope", "user", "--json"])).stdout) as { status: string; file: string };
    assert.equal(install.status, "installed");
    assert.equal(install.file, join(this.home, ".claude", "settings.json"));
    const settings = JSON.parse(readFileSync(install.file, "utf8")) as { hooks: Record<string, { hooks: Handler[] }[]> };
    /** Runs the hook installed for `event` exactly as Claude Code would; its additionalContext. */
    return async (event, payload) => {
      const h = settings.hooks[event]?.[0]?.hooks[0];
      assert.ok(h, `a ${event} hook`);
      assert.ok(h.args.includes(bin), `${event} runs ${bin}: ${JSON.stringify(h)}`);
      const input = JSON.stringify({ session_id: "s-user", cwd: this.project, transcript_path: join(this.home, "transcript.jsonl"), hook_event_name: event, ...payload });
      const r = await runChild(h.command, h.args, { cwd: this.project, env: this.env, input, timeout: h.timeout * 1000, killSignal: "SIGKILL" });
      assert.equal(r.code, 0, `${event}\n${show(r)}`);
      return r.stdout.trim() === "" ? "" : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    };
  }
}

test("the packed tarball installs globally from the registry alone and works from any directory", { timeout: 30 * 60_000 }, async (t) => {
  const why = await skipReason();
  if (why) return t.skip(why);

  // Pack the checkout as built (--ignore-scripts: `prepare` would rebuild dist/ under the running tests).
  const packed = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], REPO, 120_000);
  assert.equal(packed.code, 0, show(packed));
  const [info] = JSON.parse(packed.stdout) as { name: string; filename: string; size: number; files: { path: string }[] }[];
  assert.ok(info);
  assert.equal(info.name, "mem-local");
  const shipped = new Set(info.files.map((f) => f.path));
  for (const f of ["bin/mem.cjs", "models/catalogue.json", "dist/src/cli/main.js", "dist/src/hooks/entry.bundle.cjs", "dist/vendor/transformers.js", "hooks/hooks.json", ".claude-plugin/plugin.json"]) {
    assert.ok(shipped.has(f), `${f} is in the tarball`);
  }
  assert.ok(![...shipped].some((f) => f.startsWith("dist/test/") || f.startsWith("src/") || (f.startsWith("models/") && f !== "models/catalogue.json" && f !== "models/README.md")), "no tests, sources or model files ship (models/ holds the catalogue only)");

  const prefix = join(tmp, "prefix");
  const installed = await npm(["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", join(tmp, info.filename)], tmp, 25 * 60_000);
  assert.equal(installed.code, 0, show(installed));
  const pkgDir = join(prefix, "lib", "node_modules", "mem-local");
  const memBin = join(prefix, "bin", "mem");
  assert.ok(existsSync(memBin), "the `mem` command is linked into the prefix's bin");
  assert.ok(!existsSync(join(pkgDir, "node_modules", "@xenova", "transformers")), "transformers.js is bundled, not installed");
  assert.ok(existsSync(join(pkgDir, "node_modules", "onnxruntime-node")), "its native runtime is");
  const before = snapshot(pkgDir);

  const user = new User("global", join(prefix, "bin"), { MEM_EMBED_ORDER: "transformers", MEM_TRANSFORMERS_MODEL: "test/tiny-bert" });
  await buildTinyBertModel(join(user.memHome, "models"), { name: "test/tiny-bert" });

  const indexed = await user.mem(["index", "memory"]);
  assert.match(indexed.stdout, /7 file\(s\): 7 indexed/);
  assert.match(indexed.stdout, /embedded with transformers \(test\/tiny-bert, 32 dims\)/);

  const query = JSON.parse((await user.mem(["query", "why did we choose SQLite over Postgres", "--json"])).stdout) as { legs: string[]; results: { path: string }[] };
  assert.deepEqual(query.legs, ["bm25", "vector"]);
  assert.ok(
    query.results.slice(0, 3).some((r) => r.path === join(user.project, "memory", "reference", "storage.md")),
    JSON.stringify(query.results.map((r) => r.path)),
  );

  const runHook = await user.install(join(pkgDir, "bin", "mem.cjs"));
  const decision = "We keep the hooks on SQLite WAL mode so they write while the indexer reads";
  await user.mem(["remember", decision, "--kind", "decision"]);
  assert.match(await runHook("SessionStart", { source: "startup" }), /SQLite WAL mode so they write while the indexer reads/);
  const prompt = { prompt: "why do the hooks use SQLite WAL mode while the indexer reads?" };
  // The first prompt starts the daemon and answers in-process within the hook's deadline; on a
  // loaded machine that answer can come too late (nothing injected), and the daemon, loading the
  // bundled model, may take a while to answer in time: ask until one arrives (up to 20 s).
  const hooksLog = () => (existsSync(join(user.memHome, "hooks.log")) ? readFileSync(join(user.memHome, "hooks.log"), "utf8").slice(-4000) : "(none)");
  const askUntilAnswered = async (p: Record<string, unknown>) => {
    let answer = "";
    for (let i = 0; i < 40 && !/SQLite WAL mode/.test(answer); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 500));
      answer = await runHook("UserPromptSubmit", p);
    }
    return answer;
  };
  assert.match(await askUntilAnswered(prompt), /SQLite WAL mode/, `no memory injected; hooks.log:\n${hooksLog()}`);

  // The prompt hook started the daemon: it answers from the installed package, with the bundled embedder.
  let status: { running: boolean; provider?: string } = { running: false };
  for (let i = 0; i < 100 && !status.running; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const r = await runChild("mem", ["serve", "--status", "--json"], { cwd: user.project, env: user.env, timeout: 30_000 });
    status = JSON.parse(r.stdout) as typeof status;
  }
  assert.equal(status.running, true, "a daemon runs");
  assert.match(status.provider ?? "", /transformers/);
  // A running daemon that misses the hook's 250 ms budget (a loaded CI machine) injects nothing
  // for that prompt by design; it must answer one of the next few.
  assert.match(await askUntilAnswered({ ...prompt, session_id: "s-user-2" }), /SQLite WAL mode/, `the daemon injected nothing; hooks.log:\n${hooksLog()}`);
  await user.mem(["serve", "--stop"]);

  assert.deepEqual(snapshot(pkgDir), before, "nothing was written inside the installed package");
  assert.ok(existsSync(join(user.memHome, "mem.sqlite")), "the store is in the data home");
});

test("`npm link` from the checkout gives a `mem` that runs the checkout from any directory", { timeout: 5 * 60_000 }, async (t) => {
  if (process.platform === "win32") return t.skip("the linked bin is a .cmd shim on Windows; this test drives the POSIX layout");
  if (!hasCommand("npm")) return t.skip("npm is not on PATH");
  // The global prefix through the environment (`--prefix` would also move the package being linked);
  // --ignore-scripts: `prepare` would rebuild dist/ under the running tests. No registry needed.
  const prefix = join(tmp, "link-prefix");
  const linked = await runChild("npm", ["link", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: REPO, env: { ...npmEnv(), npm_config_prefix: prefix }, timeout: 180_000, killSignal: "SIGKILL" });
  assert.equal(linked.code, 0, show(linked));
  assert.equal(realpathSync(join(prefix, "lib", "node_modules", "mem-local")), realpathSync(REPO));

  const user = new User("link", join(prefix, "bin"), { MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1" });
  assert.match((await user.mem(["index", "memory"])).stdout, /7 file\(s\): 7 indexed/);
  const query = JSON.parse((await user.mem(["query", "why did we choose SQLite over Postgres", "--json"])).stdout) as { results: { path: string }[] };
  assert.ok(
    query.results[0]?.path === join(user.project, "memory", "reference", "storage.md"),
    JSON.stringify(query.results.map((r) => r.path)),
  );
  const runHook = await user.install(join(realpathSync(REPO), "bin", "mem.cjs"));
  await user.mem(["remember", "The linked mem keeps its store in the data home", "--kind", "learned"]);
  assert.match(await runHook("SessionStart", { source: "startup" }), /linked mem keeps its store in the data home/);
});
