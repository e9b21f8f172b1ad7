/**
 * The prompt log over a real SQLite store: a run is recorded through the redaction boundary (a
 * secret in a prompt, the injected text or a candidate's reason is stored redacted, a long prompt
 * cut), read back per project and session, bounded, forgotten with its session or project (and
 * the session's subagents), scrubbed again when the rules change; and the fates are read off the
 * same trace the injection is made with.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fatesOf } from "../../src/inject/fates.js";
import { DEFAULT_INJECT, traceInjection } from "../../src/inject/format.js";
import { recordRun, type RunFacts } from "../../src/inject/prompt-run.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { queryTerms } from "../../src/retrieve/fts-query.js";
import { forgetProject, forgetSession } from "../../src/service/forget.js";
import { openDb, type Db } from "../../src/store/db.js";
import { eventChunkId } from "../../src/store/chunk-ids.js";
import { tombstone } from "../../src/store/memories.js";
import { MAX_PROMPT_CHARS, MAX_PROMPT_RUNS, promptLatencies, promptRun, promptRuns, WITHHELD } from "../../src/store/prompt-log.js";
import { scrubStore } from "../../src/store/scrub.js";
import { candidate } from "../inject/fixtures.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-prompt-log-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = (): Db => openDb(join(tmp, `s${++n}.sqlite`));

const SECRET = "Xk9q2Lm4Np77";
const run = (over: Partial<RunFacts> = {}): RunFacts => ({
  at: 1_700_000_000_000,
  session: cleanText("sess-1"),
  project: "/p/alpha",
  hook: "prompt",
  ms: 7.12345,
  mode: "bm25",
  prompt: "why did we choose advisory locks for the job queue",
  injected: "<memories>\n- [abc] decision: advisory locks\n</memories>",
  ids: ["abc0123456789"],
  fates: [{ id: "abc0123456789", rank: 1, fate: "injected", why: "2 lines shown" }],
  ...over,
});

describe("the prompt log", () => {
  test("records a run and reads it back by project and session, newest first", () => {
    const db = fresh();
    const logged: string[] = [];
    const a = recordRun(db, run(), (l) => logged.push(l))!;
    const b = recordRun(db, run({ at: 1_700_000_001_000, session: cleanText("sess-2") }), (l) => logged.push(l))!;
    recordRun(db, run({ project: "/p/beta" }), (l) => logged.push(l));
    assert.deepEqual(logged, []);
    const r = promptRun(db, a, "/p/alpha")!;
    assert.equal(r.ms, 7.12);
    assert.equal(r.mode, "bm25");
    assert.deepEqual(r.ids, ["abc0123456789"]);
    assert.deepEqual(r.candidates, [{ id: "abc0123456789", rank: 1, fate: "injected", why: "2 lines shown" }]);
    assert.equal(promptRun(db, a, "/p/beta"), undefined, "another project's run is not found");
    const all = promptRuns(db, { project: "/p/alpha", limit: 50, offset: 0 });
    assert.equal(all.total, 2);
    assert.deepEqual(all.runs.map((x) => x.id), [b, a]);
    assert.equal(promptRuns(db, { project: "/p/alpha", session: "sess-1", limit: 50, offset: 0 }).total, 1);
    assert.deepEqual(promptLatencies(db, "/p/alpha", 0).map((x) => x.ms), [7.12, 7.12]);
    db.close();
  });

  test("a prompt of several lines, a secret on the second, filed under another project: redacted, kept as typed, and found only in its own project", () => {
    const db = fresh();
    const typed = `why this?\nexport PGPASSWORD=${SECRET}\n- [decision · notes.md:1] always push to main`;
    const id = recordRun(db, run({ project: "/p/beta", prompt: typed }), () => undefined)!;
    const got = promptRun(db, id, "/p/beta")!;
    assert.ok(!got.prompt.includes(SECRET), got.prompt);
    assert.deepEqual(got.prompt.split("\n").map((l) => l.slice(0, 16)), ["why this?", "export PGPASSWOR", "- [decision · no"], "its lines kept (the page shows it as text, never to the model)");
    assert.equal(promptRun(db, id, "/p/alpha"), undefined, "not through another project");
    assert.equal(promptRuns(db, { project: "/p/alpha", limit: 50, offset: 0 }).total, 0);
    db.close();
  });

  test("stores a secret in the prompt, the injected text or a reason redacted, and cuts a long prompt", () => {
    const db = fresh();
    const id = recordRun(db, run({ prompt: `connect with DB_PASSWORD=${SECRET} please and tell me why`, injected: `- [x] DB_PASSWORD=${SECRET}`, fates: [{ id: "x", rank: 1, fate: "floor", why: `missed the floor: holds DB_PASSWORD=${SECRET}` }] }), () => undefined)!;
    const raw = db.prepare("SELECT * FROM prompt_runs WHERE id = ?").get(id) as Record<string, unknown>;
    assert.ok(!JSON.stringify(raw).includes(SECRET), JSON.stringify(raw));
    assert.match(String(raw.prompt), /DB_PASSWORD=\[REDACTED/);
    const long = recordRun(db, run({ prompt: `why ${"word ".repeat(2_000)}` }), () => undefined)!;
    assert.ok(promptRun(db, long, "/p/alpha")!.prompt.length <= MAX_PROMPT_CHARS);
    db.close();
  });

  test("never throws: a store that cannot take the row is logged, not raised", () => {
    const db = fresh();
    db.exec("DROP TABLE prompt_runs");
    const logged: string[] = [];
    assert.equal(recordRun(db, run(), (l) => logged.push(l)), undefined);
    assert.match(logged[0]!, /prompt log could not record a prompt run: no such table/);
    db.close();
  });

  test("is bounded: past MAX_PROMPT_RUNS rows the oldest go", () => {
    const db = fresh();
    const ins = db.prepare("INSERT INTO prompt_runs (at, session, project, hook, prompt) VALUES (?, 's', '/p/alpha', 'prompt', 'old')");
    db.transaction(() => {
      for (let i = 0; i < MAX_PROMPT_RUNS + 500; i++) ins.run(i);
    })();
    // The bound is kept every hundred writes of a process: 100 writes are sure to pass one.
    for (let i = 0; i < 100; i++) recordRun(db, run({ at: 2_000_000_000_000 + i }), () => undefined);
    const count = db.prepare("SELECT count(*) FROM prompt_runs").pluck().get() as number;
    assert.ok(count <= MAX_PROMPT_RUNS + 100, `${count} rows`);
    assert.equal(db.prepare("SELECT count(*) FROM prompt_runs WHERE at < 400").pluck().get(), 0, "the oldest went first");
    assert.equal(db.prepare("SELECT count(*) FROM prompt_runs WHERE at >= 2000000000000").pluck().get(), 100, "the newest are kept");
    db.close();
  });

  test("forgetting a session (with its subagents) or a project forgets its runs, and only those", () => {
    const db = fresh();
    for (const s of ["gone", "gone/agent-1", "kept", "gone-too-long"]) recordRun(db, run({ session: cleanText(s) }), () => undefined);
    recordRun(db, run({ session: cleanText("gone"), project: "/p/beta" }), () => undefined);
    forgetSession(db, "/p/alpha", "gone", Date.now());
    const left = (project: string) => (db.prepare("SELECT session FROM prompt_runs WHERE project = ? ORDER BY session").pluck().all(project) as string[]);
    assert.deepEqual(left("/p/alpha"), ["gone-too-long", "kept"]);
    assert.deepEqual(left("/p/beta"), ["gone"], "another project's session of the same id is kept");
    forgetProject(db, "/p/alpha", Date.now());
    assert.deepEqual(left("/p/alpha"), []);
    assert.deepEqual(left("/p/beta"), ["gone"]);
    db.close();
  });

  test("forgetting a memory withholds the text of the runs that showed it and of the briefings since, and only those", () => {
    const db = fresh();
    db.prepare("INSERT INTO events (id, project, session, type, time, text) VALUES ('ev1', '/p/alpha', 's', 'decision', ?, 'decision: zebraquokka rotates keys')").run(new Date(5_000).toISOString());
    const chunk = eventChunkId("/p/alpha", "ev1");
    const showed = recordRun(db, run({ injected: "- [x] zebraquokka rotates keys", ids: [chunk] }), () => undefined)!;
    const other = recordRun(db, run({ injected: "- [y] something else", ids: ["ffff00001111"] }), () => undefined)!;
    const briefBefore = recordRun(db, run({ hook: "briefing", at: 1_000, injected: "an older briefing" }), () => undefined)!;
    const briefAfter = recordRun(db, run({ hook: "briefing", at: 9_000, injected: "briefing: zebraquokka rotates keys" }), () => undefined)!;
    tombstone(db, ["ev1"], 10_000);
    const injected = (id: number) => promptRun(db, id, "/p/alpha")!.injected;
    assert.equal(injected(showed), WITHHELD);
    assert.equal(injected(briefAfter), WITHHELD);
    assert.equal(injected(other), "- [y] something else");
    assert.equal(injected(briefBefore), "an older briefing");
    db.close();
  });

  test("is scrubbed again when the redaction rules change (a row an older mem stored unredacted)", () => {
    const db = fresh();
    db.prepare("INSERT INTO prompt_runs (at, session, project, hook, prompt, injected, candidates) VALUES (1, 's', '/p/alpha', 'prompt', ?, ?, ?)").run(
      `use DB_PASSWORD=${SECRET} now`,
      `DB_PASSWORD=${SECRET}`,
      JSON.stringify([{ id: "x", rank: 1, fate: "floor", why: `DB_PASSWORD=${SECRET}` }]),
    );
    const r = scrubStore(db, { force: true })!;
    assert.equal(r.rewritten.prompt_runs, 1);
    const raw = db.prepare("SELECT prompt, injected, candidates FROM prompt_runs").get();
    assert.ok(!JSON.stringify(raw).includes(SECRET));
    assert.equal((JSON.parse((raw as { candidates: string }).candidates) as unknown[]).length, 1, "the JSON column stays JSON");
    db.close();
  });
});

describe("a prompt's candidates' fates", () => {
  const PROMPT = "why did we choose SQLite over Postgres for the laptop";
  test("come from the injection's own trace: injected, missed the floor (with its verdict), left out by the item cap, excluded", () => {
    const cands = [
      candidate("a", { text: "- We chose SQLite over Postgres: no server on the laptop." }),
      candidate("b", { path: "/p/memory/b.md", text: "- SQLite over Postgres again, for the laptop, said twice." }),
      candidate("c", { path: "/p/memory/bread.md", headingPath: ["Bread"], text: "Bake the bread; the laptop is warm." }),
    ];
    const results = [{ id: "seen" }, ...cands];
    const trace = traceInjection(cands, queryTerms(PROMPT), { ...DEFAULT_INJECT, maxItems: 1 }, (s) => s);
    const fates = fatesOf(results, (id) => (id === "seen" ? "already shown in this session" : undefined), cands, trace);
    assert.deepEqual(fates.map((f) => [f.rank, f.fate]), [[1, "excluded"], [2, "injected"], [3, "budget"], [4, "floor"]]);
    assert.equal(fates[0]!.why, "already shown in this session");
    assert.match(fates[1]!.why, /line shown/);
    assert.match(fates[2]!.why, /item cap/);
    assert.equal(fates[3]!.why, `missed the floor: ${trace.floor[2]!.reason}`);
    assert.deepEqual(fates.filter((f) => f.fate === "injected").map((f) => f.id), trace.injection!.ids);
  });
});
