/**
 * The busy store's briefing as the SessionStart hook makes it, from a real store: 500 decisions,
 * 300 lessons, 100 open tasks, hot notes, and a recent session that edited files. The hot tier
 * is kept whole and first, and the files in play come from the captured Edits (git sees nothing
 * changed), with the decisions about them.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { anchorCaptured } from "../../src/anchor/anchor.js";
import { resolveProject } from "../../src/project/identity.js";
import { clean, cleanText } from "../../src/redact/clean.cjs";
import { openDb } from "../../src/store/db.js";
import type { CapturedEvent } from "../../src/store/event-types.js";
import { EventStore } from "../../src/store/events.js";
import { TaskStore } from "../../src/store/tasks.js";
import { makeRepo } from "../anchor/scenario.js";
import { hasCommand } from "../helpers/has-command.js";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";
import { spawnHook } from "../hooks/helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-busy-hook-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const DAY = 86_400_000;
const headings = (text: string) => text.split("\n").filter((l) => l.startsWith("## "));

describe("the busy store's briefing, made by the hook", { skip: !hasCommand("git") && "git not available" }, () => {
  test("500 decisions, 300 lessons, 100 tasks: the hot tier whole and first, then the tasks, then the files the last session edited", async () => {
    const repo = makeRepo(join(tmp, "repo"), { "src/db.ts": "db\n", "src/auth.ts": "auth\n", "src/queue.ts": "q\n" });
    mkdirSync(join(repo, "memory"));
    writeFileSync(join(repo, "memory", "identity.md"), `# Identity\n\n${Array.from({ length: 8 }, (_, i) => `- Identity line ${i}: ${"detail ".repeat(6)}`).join("\n")}\n`);
    writeFileSync(join(repo, "memory", "state.md"), `# State\n\n${Array.from({ length: 10 }, (_, i) => `- State line ${i}: ${"detail ".repeat(6)}`).join("\n")}\n`);
    const home = join(tmp, "home");
    const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "none" };
    assert.equal((await runMem(["index", join(repo, "memory"), "-q"], { env })).code, 0);

    const now = Date.now();
    const db = openDb(join(home, "mem.sqlite"));
    const project = cleanText(resolveProject(repo).id);
    const events = new EventStore(db);
    const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
    const batch: CapturedEvent[] = [];
    for (let i = 0; i < 500; i++) batch.push({ id: `d${i}`, type: "decision", time: iso((i + 2) * DAY), session: `old-${i % 50}`, files: [], text: `Decision ${i}: use ${Array.from({ length: 10 }, (_, j) => `w${i}y${j}`).join(" ")}`, confidence: 0.9, metadata: {} });
    for (let i = 0; i < 300; i++) batch.push({ id: `l${i}`, type: "learned", time: iso((i + 2) * DAY), session: `old-${i % 50}`, files: [], text: `Lesson ${i}: ${Array.from({ length: 10 }, (_, j) => `v${i}z${j}`).join(" ")}`, confidence: 0.9, metadata: {} });
    // An old decision about a file the last session edited (far older than the newest 500), anchored to it as its capture anchored it.
    const aboutDb: CapturedEvent = { id: "about-db", type: "decision", time: iso(400 * DAY), session: "old-x", files: [join(repo, "src/db.ts")], text: "The store keeps WAL mode: readers never wait for the writer.", confidence: 0.9, metadata: {} };
    batch.push(aboutDb);
    // The last session's Edits and Writes (captured as file_modified), two and three hours ago.
    for (const [i, f] of ["src/db.ts", "src/queue.ts"].entries()) batch.push({ id: `e${i}`, type: "file_modified", time: iso((2 + i) * 3_600_000), session: "last", files: [join(repo, f)], text: `Edit ${f}`, metadata: {} });
    events.insert(project, clean(batch));
    assert.equal(anchorCaptured(db, { project, session: cleanText("old-x"), now, events: clean([aboutDb]), taskChanges: clean([]) }), 1);
    const tasks = new TaskStore(db);
    for (let i = 0; i < 100; i++) tasks.add(project, cleanText(`task ${i}: ${"finish the thing ".repeat(3)}`), now - DAY - i);
    db.close();

    const r = await spawnHook("session-start", JSON.stringify({ session_id: "new", cwd: repo, hook_event_name: "SessionStart", source: "startup" }), env);
    assert.equal(r.code, 0, r.stderr);
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    const h = headings(text);
    assert.deepEqual(h.slice(0, 4), ["## From memory/identity.md", "## From memory/state.md", "## Open tasks", "## About the files in play (branch main, 2 edited recently)"], text);
    for (const [title, n] of [["Identity", 8], ["State", 10]] as const) assert.ok(text.includes(`> - ${title} line ${n - 1}:`), `${title}: whole`);
    const play = text.slice(text.indexOf("## About the files in play"));
    assert.match(play, /^## About the files in play \(branch main, 2 edited recently\)\n- The store keeps WAL mode: readers never wait for the writer\. \(decision, 400 d ago; src\/db\.ts\)\n- Files: src\/db\.ts \(edited 2 h ago\); src\/queue\.ts \(edited 3 h ago\)\n/);
    assert.ok(h.indexOf("## Decisions") > h.indexOf("## About the files in play (branch main, 2 edited recently)"));
    assert.match(text, /- \d+ (older )?decisions: `mem list --kind decision`/);
    assert.ok(text.length <= 9_000 + 200);
  });
});
