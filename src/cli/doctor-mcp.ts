import { existsSync } from "node:fs";
import { currentTarget } from "../install/target.js";
import type { Where } from "../install/files.js";
import { mcpServerEntry } from "../install/mcp-config.js";
import { mcpRegistrations } from "../install/mcp-files.js";
import { sameJson } from "../install/settings-json.js";
import type { Check } from "../health/check.js";

/** The tools `mem mcp` must list. */
export const MCP_TOOLS = ["search", "remember", "get", "list", "forget", "tasks", "prompt_context"];

/**
 * mem's MCP server as Claude Code would start it: registered in a scope (local wins over project
 * over user, HOOKS.md §6.1), its files there, as this checkout registers it; then started once
 * to answer `initialize` and `tools/list` within `budgetMs` (late: a warning, a loaded machine
 * is not a broken server; failed: an error). `promptHook` says the prompt hook
 * is an mcp_tool call, which needs the server.
 */
export async function mcpChecks(where: Where, opts: { promptHook?: boolean; budgetMs?: number } = {}): Promise<Check[]> {
  const regs = mcpRegistrations(where);
  const checks: Check[] = [];
  const want = currentTarget(where.env);
  for (const r of regs) {
    const name = `mcp (${r.scope})`;
    if (!r.ours) {
      checks.push({ name, status: "warn", detail: `${r.file}: the MCP server named "mem" is not mem's (${JSON.stringify(r.entry).slice(0, 160)})`, fix: "remove or rename it, then `mem install`" });
      continue;
    }
    const e = r.entry as { command: string; args?: string[] };
    const missing = [e.command, ...(e.args ?? [])].filter((w) => /^(\/|[A-Za-z]:[\\/])/.test(w) && !existsSync(w));
    if (missing.length > 0) checks.push({ name, status: "error", detail: `${r.file}: the server runs ${missing.join(", ")}, which is not there (a moved or removed mem, another node?)`, fix: `\`mem install --scope ${r.scope}\` with the mem to use (a checkout or an npm install)` });
    else if (!sameJson(r.entry, mcpServerEntry(want))) checks.push({ name, status: "warn", detail: `${r.file}: registered with another node or copy of mem than this one`, fix: `\`mem install --scope ${r.scope}\`` });
    else checks.push({ name, status: "ok", detail: `${r.file}: mcpServers.mem runs this mem` });
  }
  const ours = regs.filter((r) => r.ours);
  if (ours.length === 0) {
    checks.push(
      opts.promptHook
        ? { name: "mcp", status: "error", detail: "the UserPromptSubmit hook calls mem's MCP server (--prompt-transport mcp), which is registered in no scope: prompts get no memories", fix: "`mem install` (without --no-mcp)" }
        : { name: "mcp", status: "warn", detail: "mem's MCP server is registered in no Claude Code scope (fine with the plugin, or without MCP tools)", fix: "`mem install`" },
    );
  }
  const run = (ours[0]?.entry as { command: string; args: string[] } | undefined) ?? { command: want.node, args: [want.bin, "mcp"] };
  checks.push(await answers(run, where, opts.budgetMs ?? 5_000));
  return checks;
}

/** Starts the server once: `initialize` and `tools/list` within the budget, every tool listed. */
async function answers(run: { command: string; args: string[] }, where: Where, budgetMs: number): Promise<Check> {
  const name = "mcp server";
  const [{ Client }, { StdioClientTransport }] = await Promise.all([import("@modelcontextprotocol/sdk/client/index.js"), import("@modelcontextprotocol/sdk/client/stdio.js")]);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(where.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({ command: run.command, args: run.args, env, cwd: where.cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "mem-doctor", version: "1" });
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${budgetMs} ms`)), budgetMs)));
    const tools = await Promise.race([client.connect(transport).then(() => client.listTools()), late]);
    const ms = Math.round(performance.now() - t0);
    const names = tools.tools.map((t) => t.name);
    const absent = MCP_TOOLS.filter((t) => !names.includes(t));
    if (absent.length > 0) return { name, status: "error", detail: `\`${run.args.join(" ")}\` answered in ${ms} ms without the tools ${absent.join(", ")}`, fix: "`npm run build` in mem's checkout, or install mem again" };
    return { name, status: "ok", detail: `\`mem mcp\` answered initialize and tools/list in ${ms} ms (${names.length} tools)` };
  } catch (err) {
    const lines = stderr.trim().split("\n").filter(Boolean);
    const why = lines.find((l) => /error/i.test(l)) ?? lines.pop();
    const late = /^no answer within/.test((err as Error).message);
    return { name, status: late ? "warn" : "error", detail: `\`${run.command} ${run.args.join(" ")}\`: ${(err as Error).message}${why ? ` (${why.slice(0, 300)})` : ""}`, fix: "run `mem mcp` by hand to see why; `npm run build` in mem's checkout, or install mem again" };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}
