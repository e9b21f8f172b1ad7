/**
 * The team tier end to end (real CLI processes, real SQLite, a real git work tree): the records
 * in the repository's record folder are the team's (`mem list --team`, with `--kind` and
 * `--json`; a personal note with a kind is not), and a local memory the team record names
 * (`mem-id`) or states is one memory with both sources: listed once, briefed once, injected once
 * and found once by `mem query`, as the record "also local"; `mem get` of either shows both.
 * Reading changes nothing stored.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { cleanEnv, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-team-tier-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

type Rec = { kind: string; status?: string; date?: string; authors: string[]; supersededBy?: string; title?: string; team?: boolean; memId?: string };
type Mem = { id: string; kind: string; text: string; path?: string; source: string; record?: Rec; alsoLocal?: string[]; team?: { id: string; path: string; record: Rec } };
type Listed = { total: number; memories: Mem[] };

test("mem list --team lists the team's records; a local memory a team record names or states is one memory with both sources", async () => {
  const repo = join(tmp, "repo");
  const dec = join(repo, "docs", "decisions");
  mkdirSync(dec, { recursive: true });
  mkdirSync(join(repo, "memory"));
  execFileSync("git", ["init", "-q", repo]);
  const env = { ...cleanEnv(join(tmp, "claude")), HOME: tmp, MEM_HOME: join(tmp, "home") };
  const mem = (args: string[], input?: string) => runMem(args, { env, cwd: repo, ...(input !== undefined ? { input } : {}) });

  // Nothing yet: the empty state says how to get team memory.
  const none = await mem(["list", "--team"]);
  assert.equal(none.code, 0, show(none));
  assert.match(none.stdout, /no team records in .*\n.*`mem share ID`.*docs\/decisions or docs\/adr/);

  const pg = jsonOf<{ memory: Mem }>(await mem(["remember", "--kind", "decision", "--json", "Use PostgreSQL for the order store because of JSONB"])).memory;
  const kafka = jsonOf<{ memory: Mem }>(await mem(["remember", "--kind", "decision", "--json", "We decided to use Kafka for the event bus"])).memory;
  const other = jsonOf<{ memory: Mem }>(await mem(["remember", "--kind", "decision", "--json", "Deploy with blue-green switches for the billing service"])).memory;
  const stored = jsonOf<Listed>(await mem(["list", "--source", "explicit", "--json"]));

  const write = (name: string, text: string) => writeFileSync(join(dec, name), text);
  // As `mem share` writes one: the local memory's id (here the one id outputs show) in `mem-id`.
  write("use-postgresql.md", `---\nstatus: accepted\ndate: 2026-11-28\ndecision-makers: Ada Lovelace <ada@example.com>\nkind: decision\nmem-id: ${pg.id}\n---\n# Use PostgreSQL for the order store\n\nUse PostgreSQL for the order store because of JSONB.\n`);
  // A teammate's record that states the same as a local memory, without any mem-id.
  write("kafka.md", "---\nstatus: accepted\ndate: 2026-10-02\ndecision-makers: [Grace Hopper]\n---\n# Event bus\n\nUse Kafka for the event bus.\n");
  write("mongo.md", "# Use MongoDB for events\n\nDate: 2024-01-10\n\n## Status\n\nSuperseded by [Event bus](kafka.md)\n");
  write("graphql.md", "---\nstatus: proposed\ndate: 2026-11-20\n---\n# Offer a GraphQL API\n");
  write("k8s.md", "---\nstatus: rejected\ndate: 2026-09-09\ndecision-makers: Carol\n---\n# Run our own Kubernetes cluster\n");
  // The user's own note with a kind: a personal record, not the team's.
  writeFileSync(join(repo, "memory", "tabs.md"), "---\nkind: preference\n---\n# Tabs over spaces in the Makefile\n");
  const idx = await mem(["index", "docs", "memory"]);
  assert.equal(idx.code, 0, show(idx));

  // --team: the five team records, newest first, the personal note left out.
  const team = jsonOf<Listed>(await mem(["list", "--team", "--json"]));
  assert.equal(team.total, 5);
  assert.deepEqual(
    team.memories.map((m) => [m.record?.title, m.kind, m.record?.status, m.record?.date, m.record?.authors, m.record?.team]),
    [
      ["Use PostgreSQL for the order store", "decision", "accepted", "2026-11-28", ["Ada Lovelace <ada@example.com>"], true],
      ["Offer a GraphQL API", "proposed", "proposed", "2026-11-20", [], true],
      ["Event bus", "decision", "accepted", "2026-10-02", ["Grace Hopper"], true],
      ["Run our own Kubernetes cluster", "rejected", "rejected", "2026-09-09", ["Carol"], true],
      ["Use MongoDB for events", "superseded", "superseded by event bus", "2024-01-10", [], true],
    ],
  );
  const pgRecord = team.memories[0]!;
  assert.ok(!Object.hasOwn(pgRecord.record!, "keys"), "the keys a record is matched by stay inside");
  const kafkaRecord = team.memories[2]!;
  assert.deepEqual(pgRecord.alsoLocal, [pg.id], "the record the local memory was shared from: also local");
  assert.deepEqual(kafkaRecord.alsoLocal, [kafka.id], "the record that states a local memory: also local");
  const rejected = jsonOf<Listed>(await mem(["list", "--team", "--kind", "rejected", "--json"]));
  assert.deepEqual(rejected.memories.map((m) => m.record?.title), ["Run our own Kubernetes cluster"]);
  assert.equal(rejected.total, 1);
  const text = await mem(["list", "--team"]);
  assert.equal(text.code, 0, show(text));
  assert.match(text.stdout, new RegExp(`^${pgRecord.id} {2}decision \\(accepted\\) {2}2026-11-28 {2}by Ada Lovelace .ada@example.com> {2}docs/decisions/use-postgresql\\.md {2}also local ${pg.id}\\n {3}Use PostgreSQL for the order store\\n`, "m"));
  assert.match(text.stdout, /superseded \(superseded by event bus\) {2}2024-01-10 {2}no author {2}docs\/decisions\/mongo\.md\n/);
  assert.doesNotMatch(text.stdout, /Tabs over spaces/);
  assert.equal((await mem(["list", "--team", "--text", "x"])).code, 2, "--team with a filter it cannot honour is refused");

  // The whole list: each converged memory once, as its record.
  const all = jsonOf<Listed>(await mem(["list", "--json"]));
  const ids = all.memories.map((m) => m.id);
  assert.ok(!ids.includes(pg.id) && !ids.includes(kafka.id), "the local memories are listed as their records");
  assert.ok(ids.includes(other.id) && ids.includes(pgRecord.id) && ids.includes(kafkaRecord.id));
  assert.equal(all.total, 1 + 5 + 1, "one local memory left, five team records, one personal record");
  assert.match((await mem(["list"])).stdout, /docs\/decisions\/use-postgresql\.md {2}accepted, 2026-11-28, by Ada Lovelace .ada@example.com>, team, also local /);

  // mem get: both sources, from either id.
  const gotLocal = jsonOf<{ memory: Mem }>(await mem(["get", pg.id, "--json"])).memory;
  assert.equal(gotLocal.team?.id, pgRecord.id);
  assert.equal(gotLocal.team?.record.status, "accepted");
  assert.match((await mem(["get", kafka.id])).stdout, new RegExp(`also a team record: ${kafkaRecord.id} .*docs/decisions/kafka\\.md \\(accepted, 2026-10-02, by Grace Hopper\\)`));
  const gotRecord = await mem(["get", pgRecord.id]);
  assert.match(gotRecord.stdout, /team record: accepted, 2026-11-28, by Ada Lovelace .ada@example.com>/);
  assert.match(gotRecord.stdout, new RegExp(`also local: ${pg.id}`));
  assert.equal(jsonOf<{ memory: Mem }>(await mem(["get", other.id, "--json"])).memory.team, undefined, "a memory no record states has one source");

  // mem query: found once, as the record, with its status, date and authors.
  const q = await mem(["query", "PostgreSQL order store JSONB"]);
  assert.equal(q.code, 0, show(q));
  assert.match(q.stdout, /docs\/decisions\/use-postgresql\.md:\d+-\d+ {2}\(2026-11-28\)\n {3}\[accepted · by Ada Lovelace .ada@example\.com> · team, also local\]\n/, "its date said once, in the head line");
  assert.doesNotMatch(q.stdout, new RegExp(pg.id), "the local memory is not shown beside its record");
  const qj = jsonOf<{ results: { id: string; sources: string[] }[] }>(await mem(["query", "PostgreSQL order store JSONB", "--json"]));
  assert.ok(!qj.results.some((r) => r.id === pg.id));
  assert.deepEqual(qj.results.find((r) => r.sources.length > 0)?.sources, ["accepted", "2026-11-28", "by Ada Lovelace <ada@example.com>", "team, also local"]);

  // The prompt hook: the record once, with status, date and authors in its bracket.
  const prompt = await mem(["hook", "user-prompt-submit"], JSON.stringify({ session_id: "p1", cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "which database holds the order store and why JSONB?" }));
  assert.equal(prompt.code, 0, show(prompt));
  const ctx = (JSON.parse(prompt.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  assert.match(ctx, new RegExp(`- \\[${pgRecord.id} · decision · accepted · 2026-11-28 · by Ada Lovelace .ada@example\\.com> · team, also local · docs/decisions/use-postgresql\\.md:\\d+\\]`));
  assert.doesNotMatch(ctx, new RegExp(pg.id), "the local memory is injected once, as its record");

  // The briefing: the team's decisions with author and date, each once.
  const start = await mem(["hook", "session-start"], JSON.stringify({ session_id: "b1", cwd: repo, hook_event_name: "SessionStart", source: "startup" }));
  const brief = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  assert.match(brief, /- Use PostgreSQL for the order store \[team record docs\/decisions\/use-postgresql\.md · accepted · 2026-11-28 · by Ada Lovelace .ada@example\.com> · also local\]/);
  assert.match(brief, /- Event bus \[team record docs\/decisions\/kafka\.md · accepted · 2026-10-02 · by Grace Hopper · also local\]/);
  assert.doesNotMatch(brief, /because of JSONB|use Kafka for the event bus/i, "the local statements are briefed as their records");
  assert.match(brief, /Deploy with blue-green switches/);
  assert.match(brief, /Tabs over spaces in the Makefile \[record memory\/tabs\.md\]/, "a personal record says so");

  // Reading changed nothing: both local memories are still stored as they were.
  assert.deepEqual(jsonOf<Listed>(await mem(["list", "--source", "explicit", "--json"])).memories.map((m) => [m.id, m.text]), stored.memories.map((m) => [m.id, m.text]));
  assert.equal((await mem(["get", pg.id, "--json"])).code, 0);
});
