/**
 * The explicit channels of the secret corpora (explicit-channels.test.ts, third-channels.test.ts), each into its
 * own data home: `mem remember` (the text as an argument), the MCP `remember` tool (text, files), and `mem import`
 * (text, key, files, metadata, history). Then what the model is shown is read back: MCP `search`, `get` and
 * `list`, `mem query --batch`, `mem get`, and the next session's briefing. Every byte of each data home and every
 * output is scanned for each secret (a long one also by its middle). Returns the leaks and a tally by channel.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { hook } from "../hooks/helpers.js";
import { serverEnv } from "../helpers/mcp-env.js";
import { BIN, cleanEnv, runMem, show } from "../helpers/mem-cli.js";
import type { Case } from "../helpers/secrets.js";
import { filesUnder } from "./channels.js";

type Result = { content: { type: string; text: string }[]; structuredContent?: { memory?: { id: string } } };

export async function explicitChannels(cases: Case[], tmp: string): Promise<{ leaks: string[]; tally: string[] }> {
  const project = join(tmp, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });

  const first = (text: string) => text.split("\n").find((l) => l.trim() !== "") ?? text;
  const homes = { remember: join(tmp, "h-remember"), mcp: join(tmp, "h-mcp"), import: join(tmp, "h-import") };
  const shown: Record<keyof typeof homes, string[]> = { remember: [], mcp: [], import: [] };
  const envOf = (home: string) => ({ ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp });

  // mem remember: one process per memory, the text as its argument.
  for (const c of cases) {
    const r = await runMem(["remember", "--kind", "decision", "--json", "--", c.text], { env: envOf(homes.remember), cwd: project });
    assert.equal(r.code, 0, show(r));
    shown.remember.push(r.stdout, r.stderr);
  }

  // mem import: text, key, files, metadata and an earlier version, all holding the secret.
  const lines = cases.map((c, i) =>
    JSON.stringify({ text: c.text, kind: "learned", key: `k${i} ${first(c.text)}`, files: [`cfg/${i}.env`], metadata: { cmd: c.text }, history: [{ version: 1, at: "2026-11-01T00:00:00Z", kind: "note", text: `before: ${c.text}`, tags: [] }] }),
  );
  writeFileSync(join(tmp, "import.jsonl"), `${lines.join("\n")}\n`);
  const imp = await runMem(["import", join(tmp, "import.jsonl"), "--json"], { env: envOf(homes.import), cwd: project });
  assert.equal(imp.code, 0, show(imp));
  assert.equal((JSON.parse(imp.stdout) as { imported: number }).imported, cases.length);
  shown.import.push(imp.stdout, imp.stderr);

  // MCP: remember every case, then search, get and list as the model would.
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env: serverEnv(tmp, homes.mcp, project), cwd: tmp, stderr: "pipe" });
  const client = new Client({ name: "mem-test", version: "1" });
  await client.connect(transport);
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as Result;
      shown.mcp.push(JSON.stringify(r));
      return r;
    };
    const ids: string[] = [];
    for (const c of cases) {
      const r = await call("remember", { text: c.text, kind: "decision", files: [`src/${c.name.length}.ts`] });
      ids.push(r.structuredContent?.memory?.id ?? "");
    }
    // By topic (the search echoes its query, the model's own words, so the query holds no secret).
    for (const c of cases) await call("search", { query: c.name, k: 5 });
    for (const id of ids.slice(0, 40)) await call("get", { id, history: true });
    await call("list", { limit: 200 });
  } finally {
    await client.close();
  }

  // The CLI's reads and the next session's briefing, in each data home.
  const queries = cases.map((c, i) => JSON.stringify({ id: `q${i}`, text: c.name })).join("\n");
  for (const ch of Object.keys(homes) as (keyof typeof homes)[]) {
    const q = await runMem(["query", "--batch", "-", "--k", "5", "--json"], { env: envOf(homes[ch]), cwd: project, input: queries });
    assert.equal(q.code, 0, show(q));
    shown[ch].push(q.stdout);
    const list = await runMem(["list", "--json", "--limit", "500"], { env: envOf(homes[ch]), cwd: project });
    shown[ch].push(list.stdout);
    const brief = await hook("session-start", { session_id: `next-${ch}`, cwd: project, hook_event_name: "SessionStart", source: "startup" }, { MEM_HOME: homes[ch], HOME: tmp, MEM_EMBED_ORDER: "none" });
    shown[ch].push(brief.stdout);
  }

  // Scan.
  const tally: string[] = [];
  const leaks: string[] = [];
  for (const ch of Object.keys(homes) as (keyof typeof homes)[]) {
    const stored = filesUnder(homes[ch]).map((f) => ({ f, bytes: readFileSync(f) }));
    assert.ok(stored.some((s) => s.f.endsWith("mem.sqlite")), `${ch}: the store was written`);
    let storedRaw = 0;
    let shownRaw = 0;
    for (const c of cases) {
      let inStore = false;
      let inShown = false;
      for (const [secret] of c.secrets) {
        const needles = secret.length >= 24 ? [secret, secret.slice(4, 20)] : [secret];
        for (const n of needles) {
          const hits = stored.filter((s) => s.bytes.includes(n)).map((s) => s.f.slice(homes[ch].length));
          if (hits.length > 0) leaks.push(`${ch} stored ${c.name}: ${hits.join(", ")}`);
          inStore ||= hits.length > 0;
          const esc = JSON.stringify(n).slice(1, -1);
          const seen = shown[ch].some((o) => o.includes(n) || o.includes(esc));
          if (seen) leaks.push(`${ch} shown ${c.name}`);
          inShown ||= seen;
        }
      }
      storedRaw += inStore ? 1 : 0;
      shownRaw += inShown ? 1 : 0;
    }
    tally.push(`${ch}: ${cases.length} shapes, ${storedRaw} stored raw, ${shownRaw} shown raw`);
  }
  assert.ok(shown.mcp.join("").includes("[REDACTED:"), "the model was shown the memories, redacted");
  return { leaks: [...new Set(leaks)], tally };
}
