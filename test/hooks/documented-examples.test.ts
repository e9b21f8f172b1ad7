/**
 * docs/hooks.md shows, for every hook mem installs, an example stdin and what the hook prints. This
 * runs each documented stdin, in the documented order, through the real hook (`node bin/mem.cjs
 * hook <name>`) against a fresh data home set up as the section says, and checks the hook prints
 * what the page shows: the same JSON, ids aside, or nothing. A change to a hook's output, or a new
 * hook without an example, fails here until the page is brought up to date.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEM_HOOKS } from "../../src/install/hooks.js";
import { REPO, runMem, show } from "../helpers/mem-cli.js";

const PAGE = join(REPO, "docs", "hooks.md");
const SECTION = "## Each hook's stdin and stdout";
/** The page's paths, which the test maps into its temporary folder. */
const PAGE_HOME = "/home/you";

interface Example {
  event: string;
  stdin: string;
  /** The documented stdout, or undefined for "nothing". */
  stdout: string | undefined;
}

/** The examples of the page's section, in order: each `### Event` with its stdin block and its stdout block (or "stdout: nothing"). */
function examples(page: string): Example[] {
  const start = page.indexOf(`\n${SECTION}\n`);
  assert.ok(start >= 0, `docs/hooks.md has no "${SECTION}" section`);
  const rest = page.slice(start + SECTION.length + 2);
  const end = rest.search(/\n## /);
  const body = end < 0 ? rest : rest.slice(0, end);
  return body
    .split(/\n### /)
    .slice(1)
    .map((part) => {
      const event = part.slice(0, part.indexOf("\n")).trim();
      const blocks = [...part.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
      assert.ok(blocks.length >= 1, `${event}: no stdin block`);
      if (blocks.length < 2) assert.match(part, /stdout: nothing/, `${event}: neither a stdout block nor "stdout: nothing"`);
      return { event, stdin: blocks[0]!, stdout: blocks[1] };
    });
}

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-doc-hooks-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Ids differ from run to run (a note's id hashes its path): the page's and the hook's are compared without them. */
const withoutIds = (v: unknown): unknown =>
  JSON.parse(
    JSON.stringify(v)
      .replace(/\b[0-9a-f]{12}\b/g, "<id>")
      .replace(/\b(?:just now|\d+ min ago)\b/g, "<a moment ago>"), // and so do the seconds a slow machine takes between two hooks
  );

describe("docs/hooks.md: every hook's documented stdin and stdout", () => {
  const all = examples(readFileSync(PAGE, "utf8"));

  test("the page has an example for every hook mem installs", () => {
    const shown = new Set(all.map((e) => e.event));
    for (const h of MEM_HOOKS) assert.ok(shown.has(h.event), `no example for ${h.event} in docs/hooks.md, "${SECTION}"`);
  });

  test("each documented stdin, run through the real hook in order, prints what the page shows", async () => {
    const home = join(tmp, "home", "you");
    const proj = join(home, "myproject");
    mkdirSync(proj, { recursive: true });
    execFileSync("git", ["init", "-q", proj], { stdio: "ignore" });
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("MEM_") && !k.startsWith("CLAUDE") && !k.startsWith("OLLAMA_") && k !== "NODE_TEST_CONTEXT" && k !== "NODE_OPTIONS") env[k] = v;
    Object.assign(env, { HOME: home, MEM_HOME: join(tmp, "data"), MEM_NO_DAEMON: "1", MEM_EMBED_ORDER: "none", MEM_WATCH: "0", MEM_ALLOW_REMOTE_MODELS: "0" });
    const mem = async (args: string[], input?: string) => {
      const r = await runMem(args, { env, cwd: proj, ...(input !== undefined ? { input } : {}) });
      assert.equal(r.code, 0, `mem ${args.join(" ")}\n${show(r)}`);
      return r;
    };

    // The set-up the section describes.
    await mem(["init"]);
    writeFileSync(join(proj, "memory", "state.md"), "# State\n\n## Now\n\n- Moving the job queue from Redis to Postgres.\n\n## Next\n\n- Drop the Redis client once the queue runs on Postgres.\n");
    writeFileSync(join(proj, "memory", "reference", "deploy.md"), "# Deploying\n\nDeploys run from CI on every tag: `make release` builds the image and pushes it to the registry.\nRoll back with `make rollback TAG=<previous tag>`; the database migrations are forward-only.\n");
    await mem(["index", "memory"]);
    await mem(["remember", "Use Postgres advisory locks for the job queue, not Redis", "--kind", "decision"]);
    const sid = "8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6";
    const transcripts = join(home, ".claude", "projects", "-home-you-myproject");
    mkdirSync(join(transcripts, sid, "subagents"), { recursive: true });
    const jsonl = (lines: object[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");
    const turn = (uuid: string, role: "user" | "assistant", text: string, time: string, agent?: string) => ({
      type: role,
      sessionId: sid,
      cwd: proj,
      uuid,
      timestamp: time,
      ...(agent ? { isSidechain: true, agentId: agent } : {}),
      message: { role, content: role === "user" ? text : [{ type: "text", text }] },
    });
    writeFileSync(join(transcripts, `${sid}.jsonl`), jsonl([turn("u1", "user", "How do we roll back a bad deploy?", "2026-11-29T05:00:00.000Z"), turn("a1", "assistant", "Run `make rollback TAG=v1.4.2`.\n[MEMORY: decision] Roll back with make rollback, never by re-tagging.", "2026-11-29T05:00:05.000Z")]));
    writeFileSync(join(transcripts, sid, "subagents", "agent-a7154de3fc719065c.jsonl"), jsonl([turn("s1", "user", "Find where the deploy tag is read.", "2026-11-29T05:01:00.000Z", "a7154de3fc719065c"), turn("s2", "assistant", "The tag is read in scripts/release.sh, line 12.", "2026-11-29T05:01:05.000Z", "a7154de3fc719065c")]));

    for (const ex of all) {
      const hook = MEM_HOOKS.find((h) => h.event === ex.event);
      if (!hook) continue; // a section about a hook mem does not install (yet)
      const payload = JSON.parse(ex.stdin) as Record<string, unknown>;
      assert.equal(payload.hook_event_name, ex.event, `${ex.event}: the stdin's hook_event_name`);
      const r = await mem(["hook", hook.name], JSON.stringify(payload).split(PAGE_HOME).join(home));
      if (ex.stdout === undefined) assert.equal(r.stdout, "", `${ex.event}: the page says it prints nothing\n${show(r)}`);
      else assert.deepEqual(withoutIds(JSON.parse(r.stdout)), withoutIds(JSON.parse(ex.stdout)), `${ex.event}: the hook's stdout differs from the page's\n${show(r)}`);
    }

    // What the page says the capture hooks stored.
    const list = (await mem(["list", "--json"])).stdout;
    assert.ok(list.includes("Roll back with make rollback, never by re-tagging."), list);
    assert.ok(list.includes("$ npm test failed: Exit code 1"), list);
  });
});
