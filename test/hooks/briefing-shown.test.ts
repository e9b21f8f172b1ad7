/**
 * The briefing's hot notes are in the session's context: the session's first prompt does not put
 * the same lines of `state.md` before the model again, while another session's prompt (which got
 * no briefing) does. The hooks as Claude Code runs them, in-process, on a real store.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { shownHotLines } from "../../src/brief/shown.js";
import { linePrint } from "../../src/store/line-print.js";
import { cleanEnv, runMem } from "../helpers/mem-cli.js";
import { hook } from "./helpers.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-briefing-shown-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const context = (stdout: string) => (stdout.trim() === "" ? "" : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext);

test("shownHotLines: the lines the briefing renders, by chunk; a line cut off by the budget is not among them", () => {
  const hot = [{ id: "c1", path: "/p/memory/state.md", text: "# State\n\nWe deploy the billing service on Fridays.\nThe next step is the ledger migration." }];
  const briefing = "## From memory/state.md\n> # State\n> We deploy the billing service on Fridays.\n> …";
  assert.deepEqual([...shownHotLines(hot, briefing, (s) => s)], [["c1", [linePrint("# State"), linePrint("We deploy the billing service on Fridays.")]]]);
  assert.deepEqual([...shownHotLines([{ path: "/p/x.md", text: "no id" }], "> no id", (s) => s)], [], "a note without its chunk id records nothing");
});

test("the session's first prompt does not repeat the briefing's hot lines; a session without the briefing gets them", async () => {
  const proj = join(tmp, "proj");
  mkdirSync(join(proj, "memory"), { recursive: true });
  mkdirSync(join(proj, ".git"));
  writeFileSync(join(proj, "memory", "state.md"), "# State\n\nThe billing service deploys with blue-green switches on Fridays.\nThe ledger migration to Postgres is next.\n");
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1" };
  assert.equal((await runMem(["index", join(proj, "memory"), "-q"], { env, cwd: proj })).code, 0);
  const prompt = (session: string) => hook("user-prompt-submit", { session_id: session, cwd: proj, hook_event_name: "UserPromptSubmit", prompt: "how does the billing service deploy with blue-green switches?" }, env);

  const start = await hook("session-start", { session_id: "s-briefed", cwd: proj, hook_event_name: "SessionStart", source: "startup" }, env);
  assert.match(context(start.stdout), /blue-green switches on Fridays/, "the briefing shows state.md");
  const briefed = context((await prompt("s-briefed")).stdout);
  assert.doesNotMatch(briefed, /blue-green switches on Fridays/, `the briefed session is not shown it again:\n${briefed}`);
  const fresh = context((await prompt("s-fresh")).stdout);
  assert.match(fresh, /blue-green switches on Fridays/, "a session that got no briefing is shown it");
});
