/**
 * The team folder as a hostile teammate (or a careless one) leaves it, end to end (real CLI, real
 * store, a real git repository): `mem forget` and `mem share` touch only record files. An events
 * log (.jsonl) kept in the folder is no record: forgetting one of its events never deletes the
 * file. A file the folder keeps for something else (README.md, FORGOTTEN.md, a template) that
 * claims a memory's `mem-id` is never overwritten by `mem share` nor removed by `mem forget`.
 * A selection (`--kind`, `--since`) never writes over a shared file someone edited since.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { git } from "../helpers/git.js";
import { cleanEnv, jsonOf, runMem, show, type Run } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-team-hostile-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

let beds = 0;
function bed() {
  const dir = join(tmp, `bed${++beds}`);
  const repo = join(dir, "repo");
  const folder = join(repo, "docs", "decisions");
  mkdirSync(folder, { recursive: true });
  git(repo, "init", "-q");
  git(repo, "config", "user.name", "Ada Lovelace");
  git(repo, "config", "user.email", "ada@example.com");
  const env = { ...cleanEnv(join(dir, "claude")), HOME: dir, MEM_HOME: join(dir, "home"), GIT_CONFIG_NOSYSTEM: "1" };
  const mem = (args: string[]) => runMem(args, { env, cwd: repo });
  const remember = async (text: string) => jsonOf<{ memory: { id: string } }>(ok(await mem(["remember", text, "--kind", "decision", "--json"]))).memory.id;
  return { repo, folder, mem, remember };
}

const ok = (r: Run) => {
  assert.equal(r.code, 0, show(r));
  return r;
};

type Shared = { results: { id: string; status: string; file?: string; memId?: string; why?: string }[] };

describe("a hostile team folder", () => {
  test("mem forget of an event of a .jsonl log in the folder refuses and leaves the file (it is no record)", async () => {
    const b = bed();
    const log = join(b.folder, "log.jsonl");
    const lines = `${JSON.stringify({ type: "decision", text: "Precious event one about deploys", time: "2026-01-01T00:00:00Z" })}\n${JSON.stringify({ type: "learned", text: "Precious event two about caches", time: "2026-01-02T00:00:00Z" })}\n`;
    writeFileSync(log, lines);
    ok(await b.mem(["index", "docs/decisions/log.jsonl"]));
    const listed = jsonOf<{ memories: { id: string; path?: string }[] }>(ok(await b.mem(["list", "--source", "markdown", "--json"]))).memories;
    const event = listed.find((m) => m.path?.endsWith("log.jsonl"));
    assert.ok(event, "the log's events are indexed");
    const r = await b.mem(["forget", event.id]);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /delete it from the file/);
    assert.equal(readFileSync(log, "utf8"), lines, "the log is left whole");
    assert.ok(!existsSync(join(b.folder, "FORGOTTEN.md")), "no tombstone for what was no shared memory");
  });

  test("README.md and FORGOTTEN.md claiming a memory's mem-id: mem share writes the memory's own file, mem forget removes only that", async () => {
    const b = bed();
    const id = await b.remember("Deploy from main only.");
    const memId = jsonOf<Shared>(ok(await b.mem(["share", id, "--dry-run", "--json"]))).results[0]!.memId!;
    const readme = `---\nmem-id: "${memId}"\n---\n# About this folder\n\nOur decision records. Keep this file.\n`;
    const tombs = `---\nmem-id: "${memId}"\n---\n# Forgotten shared memories\n\n- mem:000000000000000000000000 · 2026-01-01 · Old one\n`;
    writeFileSync(join(b.folder, "README.md"), readme);
    writeFileSync(join(b.folder, "FORGOTTEN.md"), tombs);
    const shared = jsonOf<Shared>(ok(await b.mem(["share", id, "--json"]))).results[0]!;
    assert.equal(shared.status, "written", JSON.stringify(shared));
    assert.equal(shared.file, "docs/decisions/deploy-from-main-only.md");
    assert.equal(readFileSync(join(b.folder, "README.md"), "utf8"), readme, "README.md is not overwritten");
    assert.equal(readFileSync(join(b.folder, "FORGOTTEN.md"), "utf8"), tombs, "FORGOTTEN.md is not overwritten");
    ok(await b.mem(["forget", id]));
    assert.deepEqual(readdirSync(b.folder).sort(), ["FORGOTTEN.md", "README.md"], "only the shared file went");
    assert.equal(readFileSync(join(b.folder, "README.md"), "utf8"), readme);
    assert.match(readFileSync(join(b.folder, "FORGOTTEN.md"), "utf8"), new RegExp(`^- ${memId} · `, "m"), "the tombstone is added to the file");
  });

  // Every markdown file indexed is looked at for conflict markers: a file of markers that never close
  // (108 KB here) once took the indexer minutes (a regular expression's backtracking), for every clone that pulled it.
  test("a record of conflict markers that never close is indexed at once", { timeout: 60_000 }, async () => {
    const b = bed();
    writeFileSync(join(b.folder, "0001-markers.md"), `# Markers\n\n${"<<<<<<< a\n=======\n".repeat(6_000)}`);
    ok(await b.mem(["index", "docs/decisions"]));
    const listed = jsonOf<{ memories: { path?: string; record?: { status?: string } }[] }>(ok(await b.mem(["list", "--team", "--json"]))).memories;
    assert.equal(listed.length, 1);
    assert.notEqual(listed[0]!.record?.status, "unresolved merge conflict", "never closed: no conflict");
  });

  // A heading of many spaces before its last word once took the title's regular expression minutes (cubic backtracking).
  test("a record whose heading holds 20,000 spaces is indexed at once, titled", { timeout: 60_000 }, async () => {
    const b = bed();
    writeFileSync(join(b.folder, "0002-spaces.md"), `---\nstatus: accepted\n---\n# Spaced${" ".repeat(20_000)}out ##\n\nText.\n`);
    ok(await b.mem(["index", "docs/decisions"]));
    const listed = jsonOf<{ memories: { record?: { title?: string } }[] }>(ok(await b.mem(["list", "--team", "--json"]))).memories;
    assert.equal(listed[0]?.record?.title, `Spaced${" ".repeat(20_000)}out`.slice(0, 200));
  });

  // A long status line in the body, and decision-makers of a long run of spaces, once took minutes each (quadratic backtracking).
  test("a record with a 1 MB status line and 1 MB of spaces among its decision-makers is indexed at once", { timeout: 60_000 }, async () => {
    const b = bed();
    writeFileSync(join(b.folder, "0003-long.md"), `---\ndecision-makers: "Ann${" ".repeat(1_000_000)}and Bo"\n---\n# Long\n\nStatus: accepted${" ".repeat(1_000_000)}now\n`);
    ok(await b.mem(["index", "docs/decisions"]));
    const [r] = jsonOf<{ memories: { kind: string; record?: { status?: string; authors: string[] } }[] }>(ok(await b.mem(["list", "--team", "--json"]))).memories;
    assert.equal(r?.kind, "decision");
    assert.match(r?.record?.status ?? "", /^accepted {10}/);
    assert.deepEqual(r?.record?.authors, ["Ann", "Bo"]);
  });

  test("a note outside the record folders whose frontmatter says `record: {team: true}` is no team record", async () => {
    const b = bed();
    mkdirSync(join(b.repo, "notes"));
    writeFileSync(join(b.repo, "notes", "fake.md"), "---\nkind: guide\nrecord: {team: true, kind: decision, status: accepted, authors: [The Lead], title: Push to prod on Fridays}\n---\n# Fake\n\nPush to prod on Fridays.\n");
    ok(await b.mem(["index", "notes"]));
    const team = jsonOf<{ total: number }>(ok(await b.mem(["list", "--team", "--json"])));
    assert.equal(team.total, 0, "not the team's");
    const listed = jsonOf<{ memories: { path?: string; record?: unknown }[] }>(ok(await b.mem(["list", "--json"]))).memories;
    assert.ok(!listed.some((m) => m.path?.endsWith("fake.md")), "no record at all: a note is listed only with --source markdown");
  });

  test("a vendored library's ADR folder (vendor/lib/docs/adr) is no record folder of the team: only the repository's own are", async () => {
    const b = bed();
    mkdirSync(join(b.repo, "vendor", "lib", "docs", "adr"), { recursive: true });
    writeFileSync(join(b.repo, "vendor", "lib", "docs", "adr", "0001-use-kafka.md"), "---\nstatus: accepted\n---\n# Use Kafka for everything\n");
    writeFileSync(join(b.folder, "0001-ours.md"), "---\nstatus: accepted\n---\n# Ours\n");
    ok(await b.mem(["index", "."]));
    const team = jsonOf<{ memories: { path?: string }[] }>(ok(await b.mem(["list", "--team", "--json"]))).memories;
    assert.deepEqual(team.map((m) => m.path), [join(b.folder, "0001-ours.md")]);
  });

  test("a selection (--kind) never writes over a shared file edited since (a teammate superseded it); the id named does", async () => {
    const b = bed();
    const id = await b.remember("Use REST for the public API.");
    ok(await b.mem(["share", id]));
    const file = join(b.folder, "use-rest-for-the-public-api.md");
    const edited = readFileSync(file, "utf8").replace("status: accepted", "status: superseded by 0007-graphql.md");
    writeFileSync(file, edited);
    const other = await b.remember("Keep migrations reversible.");
    const r = jsonOf<Shared>(ok(await b.mem(["share", "--kind", "decision", "--json"])));
    const mine = r.results.find((x) => x.file === "docs/decisions/use-rest-for-the-public-api.md")!;
    assert.equal(mine.status, "skipped", JSON.stringify(r));
    assert.match(mine.why!, /changed since|edited/);
    assert.equal(readFileSync(file, "utf8"), edited, "the teammate's edit stays");
    assert.equal(r.results.find((x) => x.id === other)?.status, "written", "the new memory is shared");
    const again = jsonOf<Shared>(ok(await b.mem(["share", id, "--json"]))).results[0]!;
    assert.equal(again.status, "written", "named by id: re-shared as the user asked");
    assert.match(readFileSync(file, "utf8"), /^status: accepted$/m);
  });
});
