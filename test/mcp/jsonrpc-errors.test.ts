/**
 * Lines the SDK's stdio transport would drop in silence get the answer JSON-RPC 2.0 asks for: a
 * line that is not JSON a Parse error (-32700, id null), JSON that is no JSON-RPC message an
 * Invalid Request (-32600, its id when it has one: an id neither string nor integer, params not an
 * object, a member too many, a request with a result), positional params Invalid params (-32602),
 * a line over the size cap an error too, id null when its id cannot be read; a line with a byte
 * order mark or Unicode white space around it is served. The server keeps serving after each. A raw `mem mcp` child is fed
 * bytes on its stdin; `lineError` is checked table-driven.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { lineError } from "../../src/mcp/line-check.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-mcp-rpc-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const proj = join(tmp, "proj");
mkdirSync(join(proj, ".git"), { recursive: true });

test("lineError: which lines are answered here, and how", () => {
  const rows: [string, ReturnType<typeof lineError>][] = [
    ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n', undefined],
    ['{"jsonrpc":"2.0","method":"notifications/initialized"}', undefined],
    ['{"jsonrpc":"2.0","id":"a","result":{}}', undefined],
    ["   \n", undefined],
    ["{not json\n", { id: null, code: -32700, message: "Parse error: the line is not valid JSON" }],
    ['{"jsonrpc":"2.0","id":3,"method":"x"', { id: null, code: -32700, message: "Parse error: the line is not valid JSON" }],
    ["42", { id: null, code: -32600, message: "Invalid Request: a JSON-RPC message is one JSON object" }],
    ["[1,2]", { id: null, code: -32600, message: "Invalid Request: a JSON-RPC message is one JSON object (batches are not supported)" }],
    ['{"jsonrpc":"1.0","id":7,"method":"x"}', { id: 7, code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' }],
    ['{"jsonrpc":"2.0","id":"q"}', { id: "q", code: -32600, message: "Invalid Request: no method" }],
    ['{"jsonrpc":"2.0","id":{"x":1},"method":5}', { id: null, code: -32600, message: "Invalid Request: method must be a string" }],
    // What the SDK's schema refuses, and would drop without an answer:
    ['\uFEFF{"jsonrpc":"2.0","id":2,"method":"ping"}', undefined], // passed on without the mark (normalLine)
    ['{"jsonrpc":"2.0","id":{},"method":"ping"}', { id: null, code: -32600, message: "Invalid Request: id must be a string or an integer" }],
    ['{"jsonrpc":"2.0","id":true,"method":"ping"}', { id: null, code: -32600, message: "Invalid Request: id must be a string or an integer" }],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', { id: null, code: -32600, message: "Invalid Request: id must be a string or an integer" }],
    ['{"jsonrpc":"2.0","id":1e400,"method":"ping"}', { id: null, code: -32600, message: "Invalid Request: id must be a string or an integer" }],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', { id: 1.5, code: -32600, message: "Invalid Request: id must be a string or an integer" }],
    ['{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}', { id: 5, code: -32602, message: "Invalid params: params must be an object (by name); MCP takes no positional params" }],
    ['{"jsonrpc":"2.0","method":"notifications/x","params":[]}', undefined], // a notification: never answered
    ['{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"x"}', { id: 6, code: -32600, message: "Invalid Request: params must be an object" }],
    ['{"jsonrpc":"2.0","id":6,"method":"tools/call","params":null}', { id: 6, code: -32600, message: "Invalid Request: params must be an object" }],
    ['{"jsonrpc":"2.0","method":"x","params":3}', { id: null, code: -32600, message: "Invalid Request: params must be an object" }],
    ['{"jsonrpc":"2.0","id":7,"method":"ping","result":1}', { id: 7, code: -32600, message: "Invalid Request: a request has a method or a result/error, not both" }],
    ['{"jsonrpc":"2.0","id":8,"method":"ping","extra":1}', { id: 8, code: -32600, message: "Invalid Request: not a JSON-RPC message of MCP (a request has jsonrpc, id, method and params, nothing else)" }],
    ['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', { id: 9007199254740992, code: -32600, message: "Invalid Request: not a JSON-RPC message of MCP (a request has jsonrpc, id, method and params, nothing else)" }],
    ['{"jsonrpc":"2.0","id":"r","result":{}}', undefined], // a response: the SDK's
  ];
  for (const [line, want] of rows) assert.deepEqual(lineError(Buffer.from(line)), want, line);
});

test("a raw child answers a malformed line, a non-JSON-RPC line and an oversized line without an id, and keeps serving", async () => {
  const child = spawn(process.execPath, [BIN, "mcp"], { cwd: tmp, env: serverEnv(tmp, join(tmp, "home"), proj), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const replies = () => stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: { tools?: unknown[] } });
  const until = async (n: number) => {
    const end = Date.now() + 20_000;
    while (replies().length < n) {
      if (Date.now() > end) throw new Error(`timed out with ${replies().length} replies\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const send = (o: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...o })}\n`);
  after(() => child.kill()); // a failed wait leaves the child running otherwise
  send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  send({ method: "notifications/initialized" });
  await until(1);

  child.stdin.write("{this is not json\n");
  await until(2);
  assert.deepEqual(replies()[1], { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not valid JSON" } });
  child.stdin.write('{"jsonrpc":"1.0","id":7,"method":"tools/list"}\n');
  child.stdin.write("\n");
  await until(3);
  assert.deepEqual(replies()[2], { jsonrpc: "2.0", id: 7, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } });
  // 17 MiB with no id at either end: over the 16 MiB cap, answered with id null.
  child.stdin.write(`${"x".repeat(17 * 2 ** 20)}\n`);
  await until(4);
  const big = replies()[3]!;
  assert.deepEqual([big.id, big.error?.code], [null, -32600]);
  assert.match(big.error!.message, /^request too large: 17,825,793 bytes/);

  send({ id: 8, method: "tools/list" });
  await until(5);
  assert.equal(replies()[4]!.id, 8);
  assert.equal(replies()[4]!.result!.tools!.length, 7, "still serving");

  // Each of these got no answer at all (the SDK dropped them): now the ping's pong or an error.
  const lines = [
    '\uFEFF{"jsonrpc":"2.0","id":"bom","method":"ping"}',
    '\u00A0{"jsonrpc":"2.0","id":"nbsp","method":"ping"}\u2028',
    '{"jsonrpc":"2.0","id":{},"method":"ping"}',
    '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    '{"jsonrpc":"2.0","id":10,"method":"tools/list","params":[]}',
    '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":"x"}',
    '{"jsonrpc":"2.0","id":12,"method":"ping","result":1}',
    '{"jsonrpc":"2.0","id":13,"method":"ping","extra":true}',
  ];
  for (const l of lines) child.stdin.write(`${l}\n`);
  await until(5 + lines.length);
  const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort(); // errors are written at once, pongs after the SDK's turn
  assert.deepEqual(
    sorted(replies().slice(5).map((r) => [r.id, r.error?.code ?? "ok"])),
    sorted([["bom", "ok"], ["nbsp", "ok"], [null, -32600], [1.5, -32600], [null, -32600], [10, -32602], [11, -32600], [12, -32600], [13, -32600]]),
  );
  assert.match(stderr, /answered a malformed line of \d+ bytes: Parse error/);
  child.stdin.end();
  assert.equal(await exited, 0);
});
