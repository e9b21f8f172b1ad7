import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { hasCommand } from "../helpers/has-command.js";
import { NO_MODEL_LINE } from "../../src/retrieve/warnings.js";

const BIN = fileURLToPath(new URL("../../../bin/mem.cjs", import.meta.url));
const REPO = dirname(dirname(BIN));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-cli-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The parent's environment without anything that would steer mem (MEM_*, OLLAMA_*) or the test
 * runner, and with an empty Claude Code config directory (doctor reads the settings files).
 */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("MEM_") || k.startsWith("OLLAMA_") || k === "NODE_TEST_CONTEXT" || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return { ...env, CLAUDE_CONFIG_DIR: join(tmp, "claude-config") };
}

/** Runs `node bin/mem.cjs ARGS` asynchronously (the fake Ollama server lives in this process). */
function mem(args: string[], o: { home: string; cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: o.cwd ?? REPO,
      env: { ...baseEnv(), MEM_HOME: o.home, MEM_ALLOW_REMOTE_MODELS: "0", MEM_EMBED_ORDER: "none", MEM_WATCH: "0", ...o.env },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: o.timeoutMs ?? 30_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (signal) reject(new Error(`mem ${args.join(" ")} killed by ${signal}\nstdout: ${stdout}\nstderr: ${stderr}`));
      else resolve({ code, stdout, stderr });
    });
    child.stdin.on("error", () => undefined); // the command may exit before reading stdin
    child.stdin.end(o.input ?? "");
  });
}

const show = (r: Run) => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
const lines = (s: string) => s.split("\n").filter((l) => l.trim() !== "");
const json = <T = unknown>(r: Run): T => {
  const out = lines(r.stdout);
  assert.equal(out.length, 1, `exactly one JSON line expected\n${show(r)}`);
  return JSON.parse(out[0]!) as T;
};

// The --json outputs of the commands, as far as these tests read them.
interface IndexJson {
  project: string;
  files: Record<string, number>;
  chunks: { added: number; total: number };
  vector: { status: string; embedded: number; reason?: string };
  warnings: string[];
  durationMs: number;
}
interface QueryHit {
  id: string;
  text: string;
  path: string;
  project: string;
  startLine: number;
  endLine: number;
  headingPath: string[];
  kind: string;
  tags: string[];
  date: string;
  score: number;
  legs: { bm25?: { rank: number }; vector?: { rank: number } };
  salience: { rrf: number; factor: number; source: string; base: number };
}
interface QueryJson {
  query: string;
  mode: string;
  legs: string[];
  projects: string[] | "all";
  vector: { provider: string; model: string; table: string } | null;
  warnings: string[];
  results: QueryHit[];
}
interface StatusJson {
  home: string;
  projects: { project: string; sources: number; chunks: number; vectors: unknown[]; hot: unknown[]; lastRun: { status: string; startedAt: string; finishedAt: string } }[];
  tables: { name: string; count: number; dims: number }[];
}
interface DoctorJson {
  ok: boolean;
  checks: { name: string; status: string; detail: string; fix?: string }[];
}

function write(root: string, rel: string, text: string): string {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function gitRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  execFileSync("git", ["init", "-q", dir], { stdio: "ignore" });
  return dir;
}

/** A memory project: a git repo with notes and a session log. */
function makeProject(dir: string): string {
  gitRepo(dir);
  write(dir, "notes/db.md", "---\nkind: decision\ntags: [db]\ndate: 2024-03-05\n---\n# Database\n\n## Migrations\n\nWe run schema migrations with a rollback script before every deploy.\n");
  write(dir, "notes/cache.md", "# Cache\n\nThe cache layer keeps query results in Redis for five minutes.\n");
  write(dir, "sessions/2024-06-20.md", "# Session\n\nWe debugged the flaky login test and raised its timeout.\n");
  mkdirSync(join(dir, "src", "deep"), { recursive: true });
  return dir;
}

describe("mem CLI: help and usage errors", () => {
  const home = join(tmp, "home-usage");

  test("--help for mem and every command: exit 0, usage on stdout, nothing on stderr", async () => {
    const cases: [string[], RegExp][] = [
      [["--help"], /^mem: local-first semantic memory[\s\S]*Usage: mem <command> \[options\][\s\S]*index[\s\S]*query[\s\S]*status[\s\S]*doctor/],
      [["-h"], /Usage: mem <command>/],
      [["help", "query"], /^Usage: mem query "TEXT" \[options\]/],
      [["index", "--help"], /^Usage: mem index \[PATH\.\.\.\] \[options\][\s\S]*--strict/],
      [["query", "--help"], /^Usage: mem query "TEXT" \[options\][\s\S]*--batch FILE\|-/],
      [["status", "--help"], /^Usage: mem status \[--project P\] \[--absolute\] \[--json\]/],
      [["doctor", "--help"], /^Usage: mem doctor \[--repair\] \[--json\]/],
      [["query", "anything", "--k", "abc", "-h"], /^Usage: mem query/],
    ];
    const runs = await Promise.all(cases.map(([args]) => mem(args, { home })));
    runs.forEach((r, i) => {
      const [args, re] = cases[i]!;
      assert.equal(r.code, 0, `${args.join(" ")}\n${show(r)}`);
      assert.match(r.stdout, re, args.join(" "));
      assert.equal(r.stderr, "", args.join(" "));
    });
    const version = await mem(["--version"], { home });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  test("bad command lines exit 2 with the reason and the usage on stderr, nothing on stdout", async () => {
    const cases: [string[], RegExp, RegExp][] = [
      [[], /^mem: local-first semantic memory/, /Usage: mem <command> \[options\]/],
      [["frobnicate"], /mem: unknown command "frobnicate"\. `mem --help` lists the commands\./, /unknown command/],
      [["qeury", "foo"], /mem: unknown command "qeury"\. Did you mean `mem query`\? `mem --help` lists the commands\.\n$/, /Did you mean/],
      [["remeber"], /Did you mean `mem remember`\?/, /Did you mean/],
      [["constructor"], /mem: unknown command "constructor"\./, /unknown command/],
      [["__proto__"], /mem: unknown command "__proto__"\./, /unknown command/],
      [["x\u001b[31m\nfake"], /mem: unknown command "x\\u\{1b\}\[31m\\nfake"\./, /unknown command/],
      [["query", "foo", "--k", "abc"], /mem query: --k must be an integer from 1 to 1000, got "abc"/, /Usage: mem query/],
      [["query", "foo", "--k", "0"], /--k must be an integer from 1 to 1000, got "0"/, /Usage: mem query/],
      [["query", "foo", "--mode", "nope"], /mem query: --mode must be one of hybrid, bm25, vector, got "nope"/, /Usage: mem query/],
      [["query"], /mem query: missing query text/, /Usage: mem query/],
      [["query", "   "], /mem query: query text is empty/, /Usage: mem query/],
      [["query", "foo", "--project", "x", "--all-projects"], /--project and --all-projects exclude each other/, /Usage: mem query/],
      [["query", "foo", "--batch", "-"], /give either query text or --batch, not both/, /Usage: mem query/],
      [["query", "foo", "--since", "last week"], /--since must be a date like 2026-01-31, got "last week"/, /Usage: mem query/],
      [["status", "--project"], /mem status: Option '--project <value>' argument missing/, /Usage: mem status/],
    ];
    const runs = await Promise.all(cases.map(([args]) => mem(args, { home })));
    runs.forEach((r, i) => {
      const [args, reason, usage] = cases[i]!;
      const what = `mem ${args.join(" ")}\n${show(r)}`;
      assert.equal(r.code, 2, what);
      assert.equal(r.stdout, "", what);
      assert.match(r.stderr, reason, what);
      assert.match(r.stderr, usage, what);
    });
  });
});

describe("mem CLI: an unknown option is one line, with the closest option the command takes", () => {
  const home = join(tmp, "home-options");
  test("every command: one line on stderr naming the option, the nearest ones, and where the options are; exit 2, nothing on stdout", async () => {
    const cases: [string[], string][] = [
      [["query", "deploy", "--explian"], "mem query: unknown option --explian (did you mean --explain?). `mem query --help` lists its options."],
      [["query", "deploy", "--bogus"], "mem query: unknown option --bogus. `mem query --help` lists its options."],
      [["query", "deploy", "--limt", "3"], "mem query: unknown option --limt. `mem query --help` lists its options."],
      [["list", "--limt", "3"], "mem list: unknown option --limt (did you mean --limit?). `mem list --help` lists its options."],
      [["list", "--absolut"], "mem list: unknown option --absolut (did you mean --absolute?). `mem list --help` lists its options."],
      [["index", "--nope"], "mem index: unknown option --nope. `mem index --help` lists its options."],
      [["doctor", "--fix"], "mem doctor: unknown option --fix. `mem doctor --help` lists its options."],
      [["status", "--jsno"], "mem status: unknown option --jsno (did you mean --json?). `mem status --help` lists its options."],
      [["task", "list", "--al"], "mem task: unknown option --al (did you mean --all?). `mem task --help` lists its options."],
      [["forget", "--purg"], "mem forget: unknown option --purg (did you mean --purge?). `mem forget --help` lists its options."],
      [["get", "abcdef", "-Z"], "mem get: unknown option -Z. `mem get --help` lists its options."],
      [["list", "--x\u001b[31m=1"], "mem list: unknown option --x?[31m. `mem list --help` lists its options."],
    ];
    const runs = await Promise.all(cases.map(([args]) => mem(args, { home })));
    runs.forEach((r, i) => {
      const [args, line] = cases[i]!;
      const what = `mem ${args.join(" ")}\n${show(r)}`;
      assert.equal(r.code, 2, what);
      assert.equal(r.stdout, "", what);
      assert.equal(r.stderr, `${line}\n`, what);
    });
  });
});

describe("mem CLI: concurrent start-up", () => {
  test("several mem processes opening a fresh data home at once all succeed (schema created once)", async () => {
    const home = join(tmp, "home-race");
    const runs = await Promise.all(Array.from({ length: 6 }, () => mem(["status", "--json"], { home })));
    for (const r of runs) {
      assert.equal(r.code, 0, show(r));
      assert.deepEqual(json(r), { home, projects: [], tables: [], warnings: [] });
    }
  });
});

describe("mem CLI: indexing without an embedding provider", () => {
  const home = join(tmp, "home-none");
  const proj = join(tmp, "proj-none");
  before(() => makeProject(proj));

  test("index --json prints one JSON summary; the skipped vector step is in it, and not on stderr when BM25 only was chosen; exit 0", async () => {
    const r = await mem(["index", proj, "--json"], { home });
    assert.equal(r.code, 0, show(r));
    const s = json<IndexJson>(r);
    assert.equal(s.project, proj);
    assert.deepEqual(s.files, { seen: 3, indexed: 3, unchanged: 0, skipped: 0, deleted: 0 });
    assert.equal(s.chunks.added, 3);
    assert.equal(s.chunks.total, 3);
    assert.equal(s.vector.status, "skipped");
    assert.equal(s.vector.embedded, 0);
    assert.equal(s.vector.reason, "no embedding provider configured (embedding.order is empty)");
    assert.deepEqual(s.warnings, []);
    assert.equal(typeof s.durationMs, "number");
    assert.deepEqual(lines(r.stderr), [], "BM25 only was chosen (MEM_EMBED_ORDER=none): no warning");
  });

  test("--strict turns a skipped vector step into exit 3; a re-run finds every file unchanged", async () => {
    const r = await mem(["index", "--strict"], { home, cwd: join(proj, "notes") });
    assert.equal(r.code, 3, show(r));
    assert.match(r.stdout, new RegExp(`^${proj}: 2 file\\(s\\): 0 indexed, 2 unchanged, 0 skipped, 0 removed\nchunks: 3 total \\(0 added, 0 removed, 0 kept\\)\n$`), "index . from a subdirectory stores under the repo top level");
    assert.doesNotMatch(r.stderr, /vector step skipped/);
    assert.match(r.stderr, /--strict: exit 3, no vectors \(no embedding provider configured/, "exit 3 says why");
  });

  test("BM25 only by choice: query answers from BM25 and says nothing of it, on stderr or in --json's warnings; mode says bm25", async () => {
    const r = await mem(["query", "schema migrations rollback", "--json"], { home, cwd: join(proj, "src", "deep") });
    assert.equal(r.code, 0, show(r));
    assert.deepEqual(lines(r.stderr), []);
    const out = json<QueryJson>(r);
    assert.deepEqual(out.warnings, []);
    assert.equal(out.mode, "bm25", "what ran");
    assert.deepEqual(out.legs, ["bm25"]);
    assert.equal(out.vector, null);
    assert.deepEqual(out.projects, [proj, "global"]);
    assert.equal(out.results[0]!.path, join(proj, "notes", "db.md"));
    assert.equal(out.results[0]!.legs.vector, undefined);
  });

  test("status shows a BM25-only project", async () => {
    const r = await mem(["status"], { home });
    assert.equal(r.code, 0, show(r));
    assert.match(r.stdout, new RegExp(`^data home: ${home}\n\n${proj}\n  sources 3, chunks 3\n  vectors none \\(BM25 only\\)\n  last index (just now|\\d+ min ago) \\(vector-skipped\\)\n$`));
  });
});

describe("mem CLI: a corrupted config", () => {
  const home = join(tmp, "home-bad-config");
  before(() => mkdirSync(home, { recursive: true }));

  test("invalid JSON or a mistyped key: a clear one-line error and exit 1; an unknown key only warns", async () => {
    writeFileSync(join(home, "config.json"), '{ "query": { "k": 5, }');
    const [status, query, index] = await Promise.all([
      mem(["status"], { home }),
      mem(["query", "x", "--json"], { home }),
      mem(["index", join(tmp, "nothing-here"), "--json"], { home }),
    ]);
    for (const [name, r] of [["status", status], ["query", query], ["index", index]] as const) {
      assert.equal(r.code, 1, `${name}\n${show(r)}`);
      if (name === "status") assert.equal(r.stdout, "");
      else assert.equal((JSON.parse(r.stdout) as { error: { code: string } }).error.code, "config", "under --json, the error as JSON");
      assert.deepEqual(lines(r.stderr), [lines(r.stderr)[0]!], "one line");
      assert.match(r.stderr, new RegExp(`^mem ${name}: config: ${join(home, "config.json")} is not valid JSON: `));
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    }

    // doctor reports a broken config as a failed check and still runs the others on the defaults
    const doc = await mem(["doctor", "--json"], { home, env: { MEM_EMBED_ORDER: "none" } });
    assert.equal(doc.code, 1, show(doc));
    const docChecks = json<DoctorJson>(doc).checks;
    const bad = docChecks.find((c) => c.name === "config")!;
    assert.equal(bad.status, "error");
    assert.match(bad.detail, /is not valid JSON/);
    assert.match(bad.fix!, /config\.json/);
    assert.ok(docChecks.some((c) => c.name === "sqlite" && c.status === "ok"));
    const emb = docChecks.find((c) => c.name === "embedding" && /^BM25 only, by your choice \(MEM_EMBED_ORDER=none\)/.test(c.detail));
    assert.ok(emb, "environment overrides still apply");
    assert.equal(emb.status, "ok", "BM25 only by choice is no problem");
    assert.match(emb.detail, /to add one: unset MEM_EMBED_ORDER/, "the undo is where the choice was made");

    writeFileSync(join(home, "config.json"), '{ "query": { "k": "ten" } }');
    const typed = await mem(["status"], { home });
    assert.equal(typed.code, 1, show(typed));
    assert.equal(typed.stderr, 'mem status: config: "query.k" must be a number, got "ten"\n');

    writeFileSync(join(home, "config.json"), '{ "query": { "kk": 3 } }');
    const unknown = await mem(["status", "--json"], { home });
    assert.equal(unknown.code, 0, show(unknown));
    assert.deepEqual(json<StatusJson>(unknown).projects, []);
    const doctor = await mem(["doctor", "--json"], { home });
    assert.equal(doctor.code, 0, show(doctor));
    const checks = json<DoctorJson>(doctor).checks;
    assert.ok(checks.some((c) => c.name === "config" && c.status === "warn" && c.detail === 'config: unknown key "query.kk" ignored' && c.fix === `edit ${join(home, "config.json")}`), JSON.stringify(checks));
  });
});

describe("mem CLI: with a (fake) Ollama server", () => {
  const home = join(tmp, "home-ollama");
  const proj = join(tmp, "work", "proj-ollama");
  const other = join(tmp, "work", "other");
  const stranger = join(tmp, "work", "stranger");
  let ollama: FakeOllama;
  let env: Record<string, string>;
  let deadEnv: Record<string, string>;
  let deadUrl: string;

  before(async () => {
    makeProject(proj);
    gitRepo(other);
    write(other, "plan.md", "# Plan\n\nSchema migrations for the other service run nightly.\n");
    mkdirSync(stranger, { recursive: true });
    ollama = await startFakeOllama({ models: ["nomic-embed-text:latest"], dims: 64 });
    const dead = await startFakeOllama();
    await dead.close();
    deadUrl = dead.url;
    env = { MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: ollama.url, MEM_OLLAMA_MODEL: "nomic-embed-text" };
    deadEnv = { ...env, MEM_OLLAMA_HOST: deadUrl };
  });
  after(async () => {
    await ollama?.close();
  });

  const TABLE = "v_ollama_nomic_embed_text_64_p03aa22a9";

  test("index builds vectors through Ollama; status shows them", async () => {
    const r = await mem(["index", proj, "--json"], { home, env });
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, "");
    const s = json<IndexJson>(r);
    assert.equal(s.chunks.total, 3);
    assert.deepEqual(
      { ...s.vector },
      { status: "ok", provider: "ollama", model: "nomic-embed-text", table: TABLE, dims: 64, embedded: 3, removed: 0, unavailable: [], failovers: [] },
    );
    assert.ok(ollama.texts >= 4, "3 chunks plus the health probe went to the server");

    const st = await mem(["status", "--json"], { home, env });
    assert.equal(st.code, 0, show(st));
    const status = json<StatusJson>(st);
    assert.equal(status.home, home);
    assert.equal(status.projects.length, 1);
    const p = status.projects[0]!;
    assert.deepEqual(Object.keys(p).sort(), ["chunks", "hot", "lastRun", "openTasks", "project", "sources", "vectors"]);
    assert.equal(p.project, proj);
    assert.equal(p.sources, 3);
    assert.equal(p.chunks, 3);
    assert.deepEqual(p.vectors, [{ table: TABLE, model: "nomic-embed-text", provider: "ollama", dims: 64, count: 3 }]);
    assert.equal(p.lastRun.status, "ok");
    assert.ok(!Number.isNaN(Date.parse(p.lastRun.startedAt)) && !Number.isNaN(Date.parse(p.lastRun.finishedAt)));
    assert.equal(status.tables.length, 1);
    assert.equal(status.tables[0]!.name, TABLE);
    assert.equal(status.tables[0]!.count, 3);
    assert.equal(status.tables[0]!.dims, 64);

    const human = await mem(["status"], { home, env });
    assert.match(human.stdout, new RegExp(`  vectors 3/3 in ${TABLE} \\(ollama nomic-embed-text, 64 dims\\)`));
  });

  test("query --json: both legs, documented shape, no stderr", async () => {
    const r = await mem(["query", "schema migrations rollback", "--json"], { home, env, cwd: proj });
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, "");
    const out = json<QueryJson>(r);
    assert.deepEqual(Object.keys(out).sort(), ["fusion", "legs", "mode", "projects", "query", "reindex", "results", "vector", "warnings"]);
    assert.equal((out as { reindex?: unknown }).reindex, null, "no background re-index (MEM_WATCH=0 here)");
    assert.equal(out.query, "schema migrations rollback");
    assert.equal(out.mode, "hybrid");
    assert.deepEqual(out.legs, ["bm25", "vector"]);
    assert.deepEqual(out.projects, [proj, "global"]);
    assert.deepEqual(out.vector, { provider: "ollama", model: "nomic-embed-text", table: TABLE });
    assert.deepEqual(out.warnings, []);
    assert.equal(out.results.length, 3);
    const top = out.results[0]!;
    for (const key of ["id", "text", "path", "startLine", "endLine", "headingPath", "project", "score", "legs", "kind", "tags", "date", "duplicates"]) assert.ok(key in top, key);
    assert.match(top.id, /^[0-9a-f]{12}$/, "the one id");
    assert.equal(top.path, join(proj, "notes", "db.md"));
    assert.equal(top.project, proj);
    assert.equal(top.startLine, 6);
    assert.equal(top.endLine, 10);
    assert.deepEqual(top.headingPath, ["Database", "Migrations"]);
    assert.match(top.text, /We run schema migrations with a rollback script/);
    assert.equal(top.kind, "decision");
    assert.deepEqual(top.tags, ["db"]);
    assert.equal(top.date, "2024-03-05");
    assert.equal(top.legs.bm25!.rank, 1);
    assert.equal(top.legs.vector!.rank, 1);
    assert.equal(top.salience.rrf, 1, "the fused score: the best of both legs");
    assert.ok(Math.abs(top.score - top.salience.rrf) <= 0.1 + 1e-12 && (top.score - top.salience.rrf) * (top.salience.factor - 1) >= 0, "the score is the fused score moved by the priors, at most 0.1, in the factor's direction");
    assert.equal(top.salience.source, "markdown");
    assert.equal(top.salience.base, 0.8, "a warm note's salience");
    assert.ok(out.results.slice(1).every((x: { legs: object }) => !("bm25" in x.legs) && "vector" in x.legs));

    const filtered = await mem(["query", "timeout", "--json", "--path", "sessions/**", "--k", "5", "--mode", "bm25"], { home, env, cwd: proj });
    assert.equal(filtered.code, 0, show(filtered));
    const f = json<QueryJson>(filtered);
    assert.deepEqual(f.legs, ["bm25"]);
    assert.deepEqual(f.results.map((x: { path: string }) => x.path), [join(proj, "sessions", "2024-06-20.md")]);
  });

  test("--explain shows each leg's rank and the fused score; plain output lists relative paths", async () => {
    const r = await mem(["query", "schema migrations rollback", "--explain", "--k", "2"], { home, env, cwd: join(proj, "src", "deep") });
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, "");
    const [weighed, ...blocks] = r.stdout.trimEnd().split("\n\n");
    assert.equal(blocks.length, 2, r.stdout);
    assert.match(weighed!, /^fusion: calibrated \(convex combination of normalised scores\); BM25 1(\.0+)?, vector [\d.]+ = calibrated 0\.50 × this query \d+%: never calibrated here/);
    assert.match(blocks[0]!, /^1\. [0-9a-f]{12} · notes\/db\.md:6-10 {2}\(2024-03-05\)\n {3}§ Database › Migrations\n {3}We run schema migrations with a rollback script before every deploy\.\n {3}fused 1\.00000 = bm25 #1 \([\d.e+-]+\), vector #1 \([-\d.]+\)\n {3}score 0\.9\d+ = fused − 0\.0\d+ \(priors break ties within ±0\.1; factor 0\.9\d\d: salience term 0\.9\d\d \(salience 0\.\d\d = warm note default 0\.80[^\n]*; weight 0\.25\)\)$/);
    assert.match(blocks[1]!, /^2\. [0-9a-f]{12} · \S+\.md:\d+-\d+[\s\S]*\n {3}fused 0\.\d+ = vector #2 \([-\d.]+\)\n {3}score [^\n]+$/);
  });

  test("--batch FILE and --batch - answer one JSON line per query; malformed lines get an error object", async () => {
    const file = write(tmp, "batch.jsonl", `${[
      JSON.stringify({ id: "q1", text: "schema migrations rollback" }),
      "this is not json",
      "",
      JSON.stringify({ id: "q3" }),
      JSON.stringify({ id: 4, text: "redis cache" }),
      JSON.stringify({ text: "flaky login" }),
      "null",
      "[1, 2]",
      JSON.stringify({ id: "last", text: "redis cache" }),
    ].join("\n")}\n`);
    const r = await mem(["query", "--batch", file, "--k", "2"], { home, env, cwd: proj });
    assert.equal(r.code, 1, show(r));
    const out = lines(r.stdout).map((l) => JSON.parse(l));
    assert.equal(out.length, 8, "every line answered, the malformed ones too");
    assert.deepEqual(Object.keys(out[0]).sort(), ["id", "results"]);
    assert.equal(out[0].id, "q1");
    assert.equal(out[0].results.length, 2);
    assert.equal(out[0].results[0].path, join(proj, "notes", "db.md"));
    assert.ok(out[0].results[0].legs.bm25 && out[0].results[0].legs.vector);
    assert.deepEqual(out[1], { id: null, error: { code: "bad_line", message: 'line 2: expected {"id": "...", "text": "..."}' } });
    assert.deepEqual(out[2], { id: "q3", error: { code: "bad_line", message: 'line 4: expected {"id": "...", "text": "..."}' } });
    assert.equal(out[3].id, "4");
    assert.equal(out[3].results[0].path, join(proj, "notes", "cache.md"));
    assert.equal(out[4].id, null);
    assert.equal(out[4].results[0].path, join(proj, "sessions", "2024-06-20.md"));
    assert.deepEqual([out[5], out[6]], [{ id: null, error: { code: "bad_line", message: 'line 7: expected {"id": "...", "text": "..."}' } }, { id: null, error: { code: "bad_line", message: 'line 8: expected {"id": "...", "text": "..."}' } }], "null and a list are malformed lines, and the batch goes on");
    assert.equal(out[7].id, "last");
    assert.deepEqual(lines(r.stderr), ["mem query --batch: 4 malformed line(s) answered with an error object"]);

    const input = `${JSON.stringify({ id: "a", text: "redis" })}\r\n${JSON.stringify({ id: "b", text: "login timeout" })}\n`;
    const s = await mem(["query", "--batch", "-", "--mode", "bm25"], { home, env, cwd: proj, input });
    assert.equal(s.code, 0, show(s));
    assert.equal(s.stderr, "");
    const so = lines(s.stdout).map((l) => JSON.parse(l));
    assert.deepEqual(so.map((x) => x.id), ["a", "b"]);
    assert.equal(so[0].results[0].path, join(proj, "notes", "cache.md"));
    assert.equal(so[1].results[0].path, join(proj, "sessions", "2024-06-20.md"));
    assert.ok(so.every((x) => x.results.every((res: { legs: object }) => !("vector" in res.legs))));

    const missing = await mem(["query", "--batch", join(tmp, "no-such.jsonl")], { home, env, cwd: proj });
    assert.equal(missing.code, 1, show(missing));
    assert.match(missing.stderr, /^mem query: cannot read batch file .*no-such\.jsonl: ENOENT\n$/);
    assert.deepEqual(lines(missing.stdout).map((l) => JSON.parse(l)), [{ error: { code: "failure", message: `cannot read batch file ${join(tmp, "no-such.jsonl")}: ENOENT` } }], "the error in the shape of the lines");
    const glued = await mem(["query", `--batch=${join(tmp, "no-such.jsonl")}`], { home, env, cwd: proj });
    assert.equal(glued.stdout, missing.stdout, "--batch=FILE alike");

    // A query that fails is its line's answer, in the same shape, and the batch goes on.
    const failing = await mem(["query", "--batch", "-", "--mode", "vector"], { home, env: { ...env, MEM_EMBED_ORDER: "none" }, cwd: proj, input });
    assert.equal(failing.code, 1, show(failing));
    const fo = lines(failing.stdout).map((l) => JSON.parse(l));
    assert.deepEqual(fo.map((x) => [x.id, x.error.code]), [["a", "search"], ["b", "search"]]);
    assert.match(fo[1].error.message, /^line 2: vector search unavailable: /);
    assert.match(failing.stderr, /mem query --batch: 2 query\(ies\) failed, answered with an error object\n$/);
  });

  test("doctor --json: every check ok while Ollama is up and the hooks are installed", async () => {
    const inst = await mem(["install", "--scope", "user"], { home, env });
    assert.equal(inst.code, 0, show(inst));
    const r = await mem(["doctor", "--json"], { home, env });
    assert.equal(r.code, 0, show(r));
    const d = json<DoctorJson>(r);
    assert.deepEqual(Object.keys(d).sort(), ["assistants", "checks", "daemon", "ok"]);
    assert.equal(d.ok, true);
    const byName = new Map((d.checks as { name: string; status: string; detail: string }[]).map((c) => [c.name, c]));
    assert.deepEqual([...byName.keys()], ["data home", "sqlite", "fts5", "drift", "redaction", "identity", "snapshots", `lancedb ${TABLE}`, "ollama", "ollama model", "hooks (user)", "hook client", "mcp (user)", "mcp server", "assistants", "daemon"]);
    // The fake answers nomic-embed-text with 64 dims, not the card's 768: the one warning.
    const expected = (name: string) => (name === "ollama model" || (name === "hook client" && !hasCommand("curl")) ? "warn" : "ok");
    for (const c of byName.values()) assert.equal(c.status, expected(c.name), JSON.stringify(c));
    assert.match(byName.get("ollama model")!.detail, /queries get "search_query: ", documents get "search_document: ".*the model returns 64 dims, not 768/);
    assert.equal(byName.get("data home")!.detail, home);
    assert.match(byName.get("fts5")!.detail, /\(3 chunks\)/);
    assert.match(byName.get(`lancedb ${TABLE}`)!.detail, /^3 vectors, ollama nomic-embed-text, 64 dims, every row read in \d+ ms$/);
    assert.match(byName.get("ollama")!.detail, /^nomic-embed-text, 64 dims/);
  });

  test("Ollama down: doctor warns with a fix and still exits 0; query falls back to BM25 with one warning line", async () => {
    const [doc, docHuman, q, qv] = await Promise.all([
      mem(["doctor", "--json"], { home, env: deadEnv }),
      mem(["doctor"], { home, env: deadEnv }),
      mem(["query", "schema migrations rollback"], { home, env: deadEnv, cwd: proj }),
      mem(["query", "schema migrations rollback", "--mode", "vector"], { home, env: deadEnv, cwd: proj }),
    ]);
    assert.equal(doc.code, 0, show(doc));
    const d = json<DoctorJson>(doc);
    assert.equal(d.ok, true);
    const ol = d.checks.find((c: { name: string }) => c.name === "ollama")!;
    assert.equal(ol.status, "warn");
    assert.match(ol.detail, /cannot reach the server \(ECONNREFUSED\)/);
    assert.ok(ol.fix!.includes("ollama serve") && ol.fix!.includes(deadUrl), ol.fix);
    const emb = d.checks.find((c: { name: string }) => c.name === "embedding")!;
    assert.equal(emb.status, "warn");
    assert.equal(emb.detail, NO_MODEL_LINE, "doctor's summary is the line every surface says");
    assert.ok(emb.fix);
    assert.ok(d.checks.filter((c: { status: string }) => c.status !== "ok").every((c: { name: string }) => c.name === "ollama" || c.name === "embedding" || c.name.startsWith("hooks")));
    assert.equal(docHuman.code, 0, show(docHuman));
    assert.match(docHuman.stdout, /^\[warn\] ollama: .*ECONNREFUSED.*\n {7}fix: start it: `ollama serve`/m);
    assert.match(docHuman.stdout, /^\[ok {2}\] sqlite: /m);

    assert.equal(q.code, 0, show(q));
    const warn = lines(q.stderr);
    assert.equal(warn.length, 1, q.stderr);
    assert.equal(warn[0], `note: ${NO_MODEL_LINE}`);
    assert.ok(warn[0]!.length <= 126, "one short line, not every provider's error");
    assert.match(q.stdout, /^1\. [0-9a-f]{12} · notes\/db\.md:6-10/);

    assert.equal(qv.code, 1, show(qv));
    assert.equal(qv.stdout, "");
    assert.match(qv.stderr, /^mem query: vector search unavailable: no embedding provider available: .*ECONNREFUSED/);
  });

  test("scope: another project's directory sees nothing of this one; --all-projects and --project NAME do", async () => {
    const idx = await mem(["index", "--json"], { home, env, cwd: other });
    assert.equal(idx.code, 0, show(idx));
    assert.equal(json<IndexJson>(idx).project, other);

    const q = ["query", "schema migrations", "--json"];
    const [fromOther, fromStranger, all, byName, byPath, fromDeep] = await Promise.all([
      mem(q, { home, env, cwd: other }),
      mem(q, { home, env, cwd: stranger }),
      mem([...q, "--all-projects"], { home, env, cwd: stranger }),
      mem([...q, "--project", basename(proj)], { home, env, cwd: stranger }),
      mem([...q, "--project", "../proj-ollama/notes"], { home, env, cwd: stranger }),
      mem(q, { home, env, cwd: join(proj, "src", "deep") }),
    ]);
    const paths = (r: Run) => json<QueryJson>(r).results.map((x) => x.path);

    assert.equal(fromOther.code, 0, show(fromOther));
    assert.equal(fromOther.stderr, "");
    assert.deepEqual(paths(fromOther), [join(other, "plan.md")], "only the other project's own chunk");

    assert.equal(fromStranger.code, 0, show(fromStranger));
    assert.deepEqual(json<QueryJson>(fromStranger).results, []);
    assert.deepEqual(json<QueryJson>(fromStranger).projects, [stranger, "global"]);
    assert.deepEqual(lines(fromStranger.stderr), [`warning: nothing is indexed for project ${stranger} (indexed: ${[other, proj].sort().join(", ")}); use --project or --all-projects`]);

    assert.equal(all.code, 0, show(all));
    assert.equal(all.stderr, "");
    assert.equal(json<QueryJson>(all).projects, "all");
    assert.deepEqual(new Set(paths(all)), new Set([join(proj, "notes", "db.md"), join(proj, "notes", "cache.md"), join(proj, "sessions", "2024-06-20.md"), join(other, "plan.md")]));

    for (const r of [byName, byPath, fromDeep]) {
      assert.equal(r.code, 0, show(r));
      assert.equal(r.stderr, "");
      assert.deepEqual(json<QueryJson>(r).projects, [proj, "global"]);
      assert.equal(paths(r)[0], join(proj, "notes", "db.md"));
      assert.ok(paths(r).every((p) => p.startsWith(`${proj}/`)));
    }
  });
});
