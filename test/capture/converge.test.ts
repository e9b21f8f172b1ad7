import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { converges, convergentPairs, pathStems, stemMatches, type ConvergeOptions } from "../../src/capture/converge.js";
import type { CapturedEvent } from "../../src/store/event-types.js";

const ROOT = "/home/me/app";
const T0 = Date.parse("2026-11-20T10:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const opts: ConvergeOptions = { windowMs: 10 * 60_000, root: ROOT, now: T0 };

function tag(text: string, minutes = 0, session = "s1", files: string[] = []): CapturedEvent {
  return { id: `tag:${text.length}:${minutes}:${session}`, type: "learned", time: at(minutes), session, files, text, confidence: 1, metadata: { source: "tag" } };
}
function tool(type: CapturedEvent["type"], name: string, arg: string, minutes = 0, session = "s1"): CapturedEvent {
  const files = type === "command_run" ? [] : [arg];
  return { id: `toolu_${name}_${minutes}_${session}_${arg}`, type, time: at(minutes), session, files, text: type === "command_run" ? `$ ${arg}` : `${name} ${arg}`, metadata: { tool: name } };
}

const AUTH = "Fixed the authentication bug in the login flow";

describe("convergence: an explicit memory and an edit that describe the same thing", () => {
  test("the auth example converges with an edit of src/auth.c through the file path's stem", () => {
    const m = converges(tag(AUTH, 3), tool("file_modified", "Edit", `${ROOT}/src/auth.c`, 0), opts);
    assert.deepEqual(m, { why: "stem", detail: "auth ~ authentication" });
    // before or after, relative path, within the window either way
    assert.ok(converges(tag(AUTH, 0), tool("file_modified", "Edit", "src/auth.c", 9), opts));
    assert.ok(converges(tag(AUTH, 10), tool("file_modified", "Write", `${ROOT}/src/auth.c`, 0), opts), "exactly 10 minutes is inside");
  });

  test("a memory that names the file converges through the path, in its files or its text", () => {
    const named = tag("Switched the retry policy in src/net/retry_policy.ts to jitter", 2);
    assert.deepEqual(converges(named, tool("file_modified", "Edit", `${ROOT}/src/net/retry_policy.ts`), opts), { why: "path", detail: "src/net/retry_policy.ts" });
    const byName = tag("The parser in parse.y needed a precedence rule", 2);
    assert.deepEqual(converges(byName, tool("file_modified", "Edit", `${ROOT}/grammar/parse.y`), opts), { why: "path", detail: "parse.y" });
    const inFiles = tag("Precedence rule added", 2, "s1", ["grammar/parse.y"]);
    assert.deepEqual(converges(inFiles, tool("file_modified", "Edit", `${ROOT}/grammar/parse.y`), opts)?.why, "path");
  });

  test("negatives: a command, a read, an edit 11 minutes away, an edit in another session", () => {
    const memory = tag(AUTH, 0);
    assert.equal(converges(memory, tool("command_run", "Bash", "npm run login-tests", 1), opts), undefined, "a command shares a keyword only");
    assert.equal(converges(memory, tool("file_explored", "Read", `${ROOT}/src/auth.c`, 1), opts), undefined, "a read is not a change");
    assert.equal(converges(memory, tool("file_modified", "Edit", `${ROOT}/src/auth.c`, 11), opts), undefined, "outside the window");
    assert.equal(converges(memory, tool("file_modified", "Edit", `${ROOT}/src/auth.c`, -11), opts), undefined, "outside the window, before");
    assert.equal(converges(memory, tool("file_modified", "Edit", `${ROOT}/docs/login.md`, 1, "s2"), opts), undefined, "another session");
    assert.ok(converges(memory, tool("file_modified", "Edit", `${ROOT}/docs/login.md`, 1, "s1"), opts), "the same edit in the same session does converge (docs is generic, login is not)");
  });

  test("negatives: generic or unrelated paths, keyword sources, sessionless events", () => {
    const memory = tag(AUTH, 0);
    for (const p of ["src/index.ts", "lib/main.c", "test/utils.ts", "app/src/lib.rs", "src/theme.css", "src/the.c"]) {
      assert.equal(converges(memory, tool("file_modified", "Edit", `${ROOT}/${p}`), opts), undefined, p);
    }
    const keyword = { ...memory, metadata: { source: "keyword" } };
    assert.equal(converges(keyword, tool("file_modified", "Edit", `${ROOT}/src/auth.c`), opts), undefined, "only explicit memories converge");
    assert.equal(converges(tag(AUTH, 0, ""), tool("file_modified", "Edit", `${ROOT}/src/auth.c`, 0, ""), opts), undefined, "no session, no convergence");
    assert.equal(converges(tag(AUTH, 0), tag("src/auth.c changed", 0), opts), undefined, "two explicit memories are not a capture");
  });

  test("the similarity hook decides only what path and stem did not, above its threshold", () => {
    const memory = tag("Reworked how sessions expire", 0);
    const edit = tool("file_modified", "Edit", `${ROOT}/src/clock.ts`);
    assert.equal(converges(memory, edit, opts), undefined);
    assert.deepEqual(converges(memory, edit, { ...opts, similarity: () => 0.91 }), { why: "similar", detail: "0.91" });
    assert.equal(converges(memory, edit, { ...opts, similarity: () => 0.5 }), undefined);
    assert.equal(converges(memory, edit, { ...opts, similarity: () => undefined }), undefined, "no model: nothing");
  });

  test("stems and prefixes", () => {
    assert.deepEqual(pathStems(`${ROOT}/src/auth.c`, ROOT), ["auth"]);
    assert.deepEqual(pathStems(`${ROOT}/packages/billingCore/invoice_pdf.test.ts`, ROOT), ["billing", "invoice", "pdf"]);
    assert.deepEqual(pathStems("/elsewhere/deep/tree/session/store.go", ROOT), ["session", "store"], "outside the root: the last two components only");
    assert.ok(stemMatches("auth", "authentication"));
    assert.ok(stemMatches("authentication", "auth"), "vice versa, for a word of 4 letters or more");
    assert.ok(!stemMatches("theme", "the"), "a stop word is no subject");
    assert.ok(!stemMatches("address", "add"), "3 letters is too short the other way");
  });

  test("pairs: each pair once, at least one side from this capture", () => {
    const memory = tag(AUTH, 2);
    const edit = tool("file_modified", "Edit", `${ROOT}/src/auth.c`, 0);
    const read = tool("file_explored", "Read", `${ROOT}/src/auth.c`, 0);
    const old = tool("file_modified", "Edit", `${ROOT}/src/auth_old.c`, 1);
    const pairs = convergentPairs([memory], [edit, read, memory], opts);
    assert.deepEqual(pairs.map((p) => [p.explicit, p.capture]), [[memory.id, edit.id]]);
    assert.deepEqual(convergentPairs([edit], [memory, old], opts).map((p) => p.capture), [edit.id], "the stored edit and stored memory are not paired again");
    assert.deepEqual(convergentPairs([read], [memory], opts), []);
  });
});
