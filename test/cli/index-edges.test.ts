import assert from "node:assert/strict";
import { NO_MODEL_LINE } from "../../src/retrieve/warnings.js";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { openDb } from "../../src/store/db.js";
import { cleanEnv, jsonOf, REPO, runMem, show } from "../helpers/mem-cli.js";
import { closedPort } from "../helpers/fake-ollama.js";

/** What `mem query --json` and `mem index --json` print, as far as these tests read it. */
interface Query {
  results: { path: string }[];
  reindex: { roots: string[]; status: string } | null;
  files: { deleted: number };
  missingRoots: string[];
  vector: { reason: string };
}

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-edges-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const envFor = (name: string, extra: Record<string, string> = {}) => ({ ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, name), HOME: tmp, ...extra });

const count = (home: string, table: string): number => {
  if (!existsSync(join(home, "mem.sqlite"))) return 0;
  const db = openDb(join(home, "mem.sqlite"), { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
};

function notes(name: string, files: Record<string, string>): string {
  const dir = join(tmp, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}


describe("mem index: a PATH that names nothing is an error, not a quiet success", () => {
  test("a missing PATH exits 1 with the reason, and nothing is stored (no run, no root)", async () => {
    const env = envFor("missing");
    const r = await runMem(["index", join(tmp, "no-such-notes")], { env });
    assert.equal(r.code, 1, show(r));
    assert.equal(r.stderr, `mem index: ${join(tmp, "no-such-notes")}: no such file or directory; nothing indexed from it\n`);
    assert.equal(r.stdout, "");
    assert.equal(count(env.MEM_HOME, "runs"), 0);
    assert.equal(count(env.MEM_HOME, "roots"), 0);
  });

  test("a PATH with no markdown or event log in it exits 1; so does a file of another kind", async () => {
    const env = envFor("empty");
    const dir = notes("empty-notes", { "readme.txt": "not markdown" });
    const r = await runMem(["index", dir, "--json"], { env });
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /^mem index: .*empty-notes: no markdown \(\.md, \.mdx\) or event log \(\.jsonl\) file there; nothing indexed from it$/m);
    assert.deepEqual(JSON.parse(r.stdout), { error: { code: "unmatched", message: `nothing indexed: ${dir}: no markdown (.md, .mdx) or event log (.jsonl) file there` } }, "an error, no summary claiming success");
    const file = await runMem(["index", join(dir, "readme.txt")], { env });
    assert.equal(file.code, 1, show(file));
    assert.equal(count(env.MEM_HOME, "runs"), 0);
  });

  test("with several PATHs, one typo fails the command; the others are indexed, the typo is not recorded", async () => {
    const env = envFor("several");
    const good = notes("several-notes", { "a.md": "# A\n\nThe ibis.\n" });
    const r = await runMem(["index", good, join(tmp, "sevral-notes"), "--project", "p", "--json"], { env });
    assert.equal(r.code, 1, show(r));
    assert.equal(r.stderr, `mem index: ${join(tmp, "sevral-notes")}: no such file or directory; nothing indexed from it\n`);
    assert.deepEqual(jsonOf<Query & { unmatched: unknown }>(r).unmatched, [{ path: join(tmp, "sevral-notes"), reason: "no such file or directory" }]);
    assert.equal(count(env.MEM_HOME, "chunks"), 1);
    assert.equal(count(env.MEM_HOME, "roots"), 1);
  });

  test("a root indexed before and deleted since leaves the index, and the command says so with exit 1", async () => {
    const env = envFor("deleted");
    const dir = notes("deleted-notes", { "a.md": "# A\n\nThe ibis.\n", "b/c.md": "# C\n\nThe heron.\n" });
    assert.equal((await runMem(["index", dir, "-q"], { env })).code, 0);
    rmSync(dir, { recursive: true });
    const r = await runMem(["index", dir, "--json"], { env });
    assert.equal(r.code, 1, show(r));
    const s = jsonOf<Query>(r);
    assert.equal(s.files.deleted, 2);
    assert.deepEqual(s.missingRoots, [dir]);
    assert.match(r.stderr, /deleted-notes: no such file or directory; what was indexed from it before has left the index/);
    assert.equal(count(env.MEM_HOME, "chunks"), 0);
  });
});

describe("mem index: the skipped vector step is one short line", () => {
  const dir = notes("vec-notes", { "a.md": "# A\n\nThe ibis.\n" });
  const other = notes("vec-other", { "b.md": "# B\n\nThe heron.\n" });

  test("no provider answering: the no-model line, once for a run over two projects", async () => {
    const port = await closedPort();
    const r = await runMem(["index", dir, other], { env: envFor("vec-down", { MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: `127.0.0.1:${port}` }) });
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, `${NO_MODEL_LINE}\n`);
  });

  test("-q prints nothing, --json keeps the reason in the summary", async () => {
    const port = await closedPort();
    const env = envFor("vec-quiet", { MEM_EMBED_ORDER: "ollama", MEM_OLLAMA_HOST: `127.0.0.1:${port}` });
    const q = await runMem(["index", dir, "-q"], { env });
    assert.equal(q.code, 0, show(q));
    assert.equal(q.stderr, "");
    const j = await runMem(["index", dir, "--json", "-q"], { env });
    assert.match(jsonOf<Query>(j).vector.reason, /^no embedding provider available: ollama/);
  });

  test("MEM_EMBED_ORDER=none is a choice: no line at all (and --strict still exits 3, saying why)", async () => {
    const env = envFor("vec-none", { MEM_EMBED_ORDER: "none" });
    const r = await runMem(["index", dir], { env });
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, "");
    const strict = await runMem(["index", dir, "--strict"], { env });
    assert.equal(strict.code, 3, show(strict));
    assert.equal(strict.stderr, "mem index: --strict: exit 3, no vectors (no embedding provider configured (embedding.order is empty))\n");
    const quiet = await runMem(["index", dir, "--strict", "-q"], { env });
    assert.deepEqual([quiet.code, quiet.stderr], [3, ""]);
  });
});

describe("mem query --path: globs relative to the folder that was indexed", () => {
  const example = join(REPO, "examples", "memory");

  test('the help\'s own "sessions/**" finds the shipped example\'s session notes, and only those', async () => {
    const env = envFor("path-example");
    assert.equal((await runMem(["index", example, "-q"], { env })).code, 0);
    const all = jsonOf<Query>(await runMem(["query", "session LanceDB table", "--json", "--k", "20"], { env }));
    assert.ok(all.results.some((x) => !x.path.includes("/sessions/")), "other notes match the words too");
    const r = await runMem(["query", "session LanceDB table", "--path", "sessions/**", "--json"], { env });
    assert.equal(r.code, 0, show(r));
    const paths = jsonOf<Query>(r).results.map((x) => x.path);
    assert.ok(paths.length > 0, show(r));
    assert.deepEqual([...new Set(paths)], [join(example, "sessions", "2026-11-18.md")]);
    // Relative to the project (the repository) and absolute, as before.
    const fromProject = jsonOf<Query>(await runMem(["query", "session LanceDB table", "--path", "examples/memory/sessions/*.md", "--json"], { env }));
    assert.deepEqual([...new Set(fromProject.results.map((x) => x.path))], [join(example, "sessions", "2026-11-18.md")]);
    const absolute = jsonOf<Query>(await runMem(["query", "session LanceDB table", "--path", `${example}/reference/**`, "--json"], { env }));
    assert.ok(absolute.results.length > 0 && absolute.results.every((x) => x.path.startsWith(join(example, "reference"))));
  });

  test("a glob that matches nothing under any root finds nothing", async () => {
    const env = envFor("path-example");
    const r = jsonOf<Query>(await runMem(["query", "session LanceDB table", "--path", "nope/**", "--json"], { env }));
    assert.deepEqual(r.results, []);
  });
});
