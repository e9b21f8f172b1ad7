/** The one line an unknown option gets (src/cli/args.ts): table-driven over what was typed and the options a command takes. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parse, UsageError, unknownOptionMessage, type Options } from "../../src/cli/args.js";

const QUERY: Options = { k: { type: "string" }, explain: { type: "boolean" }, json: { type: "boolean" }, "all-projects": { type: "boolean" }, absolute: { type: "boolean" }, quiet: { type: "boolean", short: "q" } };

test("unknownOptionMessage: the option as typed, and the closest options by edit distance (at most two)", () => {
  const cases: [string, string][] = [
    ["--explian", "unknown option --explian (did you mean --explain?)"],
    ["--EXPLAIN", "unknown option --EXPLAIN (did you mean --explain?)"],
    ["--jsn", "unknown option --jsn (did you mean --json?)"],
    ["--all-project", "unknown option --all-project (did you mean --all-projects?)"],
    ["--absolut", "unknown option --absolut (did you mean --absolute?)"],
    ["--bogus", "unknown option --bogus"],
    ["--kk", "unknown option --kk (did you mean --k?)"],
    ["-x", "unknown option -x"],
    ["--\u001b[2Jexplain", "unknown option --?[2Jexplain"],
    [`--${"a".repeat(100)}`, `unknown option --${"a".repeat(62)}`],
  ];
  for (const [typed, want] of cases) assert.equal(unknownOptionMessage(typed, QUERY), want, typed);
});

test("parse: an unknown option is a brief usage error (no usage printed after it); a missing value is a full one", () => {
  const brief = (argv: string[]) => {
    try {
      parse(argv, QUERY);
    } catch (err) {
      assert.ok(err instanceof UsageError);
      return [err.brief, err.message];
    }
    return undefined;
  };
  assert.deepEqual(brief(["deploy", "--explian"]), ["options", "unknown option --explian (did you mean --explain?)"]);
  assert.deepEqual(brief(["--k"]), [false, "Option '--k <value>' argument missing"]);
  assert.equal(brief(["deploy", "--explain", "--", "--explian"]), undefined, "after --, text");
});
