import assert from "node:assert/strict";
import { test } from "node:test";
import { describeRun } from "../../src/daemon/watch-run.js";

test("describeRun: a summary, several runs, a --stale report, a JSON error, or stderr when stdout holds no JSON", () => {
  assert.equal(describeRun({ code: 0, stdout: '{"files":{"indexed":2,"deleted":1}}\n', stderr: "" }), "2 file(s) indexed, 1 removed");
  assert.equal(describeRun({ code: 0, stdout: '{"runs":[{"files":{"indexed":1,"deleted":0}},{"files":{"indexed":3,"deleted":2}}]}', stderr: "" }), "4 file(s) indexed, 2 removed");
  assert.equal(describeRun({ code: 0, stdout: '{"stale":[{"why":"/n/a.md changed"}],"runs":[{"files":{"indexed":1,"deleted":0}}]}', stderr: "" }), "1 root(s) changed (/n/a.md changed); 1 file(s) indexed, 0 removed");
  assert.equal(describeRun({ code: 1, stdout: '{"error":{"code":"unmatched","message":"nothing indexed: /n: no such file or directory"}}\n', stderr: "mem index: /n: no such file or directory\n" }), "exit 1: nothing indexed: /n: no such file or directory", "the reason, not 0 files");
  assert.equal(describeRun({ code: 1, stdout: "", stderr: "first\nmem index: the store is damaged\n" }), "exit 1: first / mem index: the store is damaged");
});
