import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pretoolHits, toolCallOf, type CheckMemory } from "../../src/inject/pretool-match.js";
import { ruledOut, termsOf } from "../../src/inject/pretool-terms.js";
import { warningLine } from "../../src/inject/pretool-check.js";

describe("what a memory rules out", () => {
  const table: [kind: string, text: string, terms: string[][] | undefined][] = [
    ["rejected", "We rejected HS256 because it shares the secret with every verifier.", [["hs256"]]],
    ["decision", "Use ES256 instead of HS256 for JWT signing.", [["hs256"]]],
    ["decision", "Never run `npm run migrate:force` on shared databases: it dropped data.", [["npm", "run", "migrate:force"]]],
    ["decision", "Never run npm run migrate:force on prod.", [["migrate:force"]]],
    ["rejected", "Decided against Redis for the job queue since Postgres advisory locks suffice.", [["redis"]]],
    ["decision", "We chose date-fns over moment.js because moment is huge.", [["moment.js"]]],
    ["decision", "Switched from Jest to Vitest for speed.", [["jest"]]],
    ["rejected", "Dropped lodash because native array methods suffice.", [["lodash"]]],
    ["rejected", "Decided against Docker Compose for local dev.", [["docker", "compose"]]],
    ["decision", 'Chosen option: "Use MariaDB Connector" over "Use MySQL Connector", because it is a drop-in.', [["mysql", "connector"]]],
    ["rejected", "`rm -rf node_modules` in CI scripts was rejected: it wipes the cache.", [["rm", "-rf", "node_modules"]]],
    // Nothing ruled out: no warning can ever come from these.
    ["decision", "Tokens are signed with ES256 now.", undefined],
    ["decision", "Decided to read the file first.", undefined],
    // A short span is one phrase: only "full refactor" in a row would match, never "refactor" alone.
    ["decision", "Going with the simpler approach rather than a full refactor.", [["full", "refactor"]]],
    ["rejected", "We rejected the idea.", undefined],
    ["decision", "Use JSON instead of YAML for the config.", undefined],
  ];
  for (const [kind, text, want] of table) {
    test(`${kind}: ${text}`, () => assert.deepEqual(ruledOut(text, kind)?.terms, want));
  }

  test("the reason is kept for the warning", () => {
    assert.equal(ruledOut("We rejected HS256 because it shares the secret.", "rejected")?.reason, "it shares the secret");
  });

  test("a long quoted description names nothing by the code quoted inside it", () => {
    assert.deepEqual(termsOf('"Keep the fields as raw `String` and resolve the `custom(...)` call inside the converter"'), []);
  });
});

const HS: CheckMemory = { id: "e1", kind: "rejected", text: "We rejected HS256 because it shares the secret.", time: "2026-05-02T10:00:00Z", files: ["/repo/src/auth.ts"] };
const MIGRATE: CheckMemory = { id: "e2", kind: "decision", text: "Never run `npm run migrate:force`: it dropped the staging data.", time: "2026-05-01T10:00:00Z", files: [] };
const GLOBAL_HS: CheckMemory = { ...HS, id: "e3", files: [] };

describe("whether a tool call brings it back", () => {
  const edit = (file: string, old: string, neu: string) => toolCallOf("Edit", { file_path: file, old_string: old, new_string: neu })!;
  const bash = (command: string) => toolCallOf("Bash", { command })!;
  const table: [name: string, call: ReturnType<typeof edit>, memories: CheckMemory[], warned: string[]][] = [
    ["HS256 back in the anchored file", edit("/repo/src/auth.ts", "alg: 'ES256'", "alg: 'HS256'"), [HS], ["e1"]],
    ["HS256 replaced, not added", edit("/repo/src/auth.ts", "alg: 'HS256'", "alg: 'ES256'"), [HS], []],
    ["HS256 kept as it was", edit("/repo/src/auth.ts", "const a = 'HS256'; x()", "const a = 'HS256'; y()"), [HS], []],
    ["another file than the anchored one", edit("/repo/src/other.ts", "", "alg: 'HS256'"), [HS], []],
    ["a memory about no file speaks about every file", edit("/repo/src/other.ts", "", "alg: 'HS256'"), [GLOBAL_HS], ["e3"]],
    ["a relative anchor matches the absolute path", edit("/repo/src/auth.ts", "", "alg: 'HS256'"), [{ ...HS, files: ["src/auth.ts"] }], ["e1"]],
    ["a test file names it to refuse it", edit("/repo/test/auth.test.ts", "", "verify(t, 'HS256')"), [GLOBAL_HS], []],
    ["a markdown plan discusses it", edit("/repo/docs/plan.md", "", "Option B: HS256"), [GLOBAL_HS], []],
    ["a comment says it is not allowed", edit("/repo/src/auth.ts", "", "// HS256 is not allowed"), [HS], []],
    ["an ordinary edit", edit("/repo/src/auth.ts", "ttl = 3600", "ttl = 900"), [HS, MIGRATE], []],
    ["the ruled-out command", bash("npm run migrate:force"), [MIGRATE], ["e2"]],
    ["the command inside a chain", bash("cd api && npm run migrate:force -- --yes"), [MIGRATE], ["e2"]],
    ["another script", bash("npm run migrate"), [MIGRATE], []],
    ["a search for it", bash("grep -rn migrate:force package.json"), [MIGRATE], []],
    ["a commit message naming it", bash("git commit -m 'never npm run migrate:force'"), [MIGRATE], []],
    ["a here-document naming it", bash("cat > notes.txt <<'EOF'\nnpm run migrate:force\nEOF"), [MIGRATE], []],
    ["a command is checked against anchored memories too", bash("sed -i s/ES256/HS256/ src/auth.ts"), [HS], ["e1"]],
  ];
  for (const [name, call, memories, warned] of table) {
    test(name, () => assert.deepEqual(pretoolHits(call, memories).map((h) => h.memory.id), warned));
  }

  test("only Edit, MultiEdit, Write and Bash are read", () => {
    assert.equal(toolCallOf("Read", { file_path: "/repo/src/auth.ts" }), undefined);
    assert.equal(toolCallOf("NotebookEdit", { notebook_path: "/x.ipynb", new_source: "HS256" }), undefined);
    assert.equal(toolCallOf("Bash", {}), undefined);
  });

  test("a Write adds what the file did not hold", () => {
    const w = (before: string) => toolCallOf("Write", { file_path: "/repo/src/auth.ts", content: "alg: 'HS256'" }, before)!;
    assert.equal(pretoolHits(w(""), [HS]).length, 1);
    assert.equal(pretoolHits(w("alg: 'HS256'"), [HS]).length, 0);
  });

  test("a MultiEdit's edits are read together", () => {
    const m = toolCallOf("MultiEdit", { file_path: "/repo/src/auth.ts", edits: [{ old_string: "a", new_string: "alg: 'HS256'" }, null, { old_string: 1 }] })!;
    assert.equal(pretoolHits(m, [HS]).length, 1);
  });

  test("a patch (Codex's apply_patch) is read by its added and removed lines", () => {
    const p = toolCallOf("Edit", { file_path: "/repo/src/auth.ts", patch: "*** Update File: src/auth.ts\n-alg: 'ES256'\n+alg: 'HS256'\n" })!;
    assert.deepEqual([p.added, p.removed], ["alg: 'HS256'", "alg: 'ES256'"]);
    assert.equal(pretoolHits(p, [HS]).length, 1);
  });

  test("decisions and rejected approaches only", () => {
    assert.deepEqual(pretoolHits(bash("npm run migrate:force"), [{ ...MIGRATE, kind: "learned" }]), []);
  });
});

describe("the warning line", () => {
  const call = toolCallOf("Bash", { command: "npm install mongodb" })!;
  const hit = (time: string) => pretoolHits(call, [{ id: "r", kind: "rejected", text: "MongoDB: no joins we can trust", time, files: [] }])[0]!;
  const cases: [string, string][] = [
    ["2026-02-10T09:00:00Z", '- mem: the team rejected MongoDB on 2026-02-10: "MongoDB: no joins we can trust" (id 0123456789ab)'],
    // A record with no date (its file gives none): no "on" with nothing after it.
    ["", '- mem: the team rejected MongoDB: "MongoDB: no joins we can trust" (id 0123456789ab)'],
  ];
  for (const [time, want] of cases) test(`time ${JSON.stringify(time)}`, () => assert.equal(warningLine(hit(time), "0123456789ab"), want));
});
