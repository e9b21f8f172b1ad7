/**
 * Codex runs a hook only once it is trusted: `[hooks.state."<key>"] trusted_hash = "sha256:…"` in
 * the user's config.toml, the hash being Codex's own of the hook as configured. mem does not
 * compute that hash: it asks the installed Codex, through its app server's `hooks/list` (JSON-RPC
 * on stdio: `initialize`, then `hooks/list` for the project), for the key and `currentHash` of
 * each hook in the hooks.json mem just wrote, and records trust for those that run mem's hook and
 * nothing else (codex-config.ts `addTrust`, marked like everything mem writes).
 */
import { spawn } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { ourEvent } from "./assistant-hooks.js";

/** `codex` on the PATH of `env`, if any. */
export function findCodex(env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, "codex");
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

interface ListedHook {
  key?: unknown;
  handlerType?: unknown;
  command?: unknown;
  sourcePath?: unknown;
  currentHash?: unknown;
  trustStatus?: unknown;
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** The hooks of `hooksFile` that are mem's and not trusted yet, as Codex lists them. Pure. */
export function untrustedOurs(listed: unknown, hooksFile: string): { key: string; hash: string }[] {
  const data = (listed as { data?: { hooks?: ListedHook[] }[] } | undefined)?.data;
  if (!Array.isArray(data)) return [];
  const want = new Set([hooksFile, real(hooksFile)]);
  const out: { key: string; hash: string }[] = [];
  for (const h of data.flatMap((d) => (Array.isArray(d.hooks) ? d.hooks : []))) {
    if (typeof h.key !== "string" || typeof h.currentHash !== "string" || typeof h.sourcePath !== "string" || typeof h.command !== "string") continue;
    if (h.handlerType !== "command" || !want.has(h.sourcePath) || !h.key.startsWith(`${h.sourcePath}:`) || h.trustStatus === "trusted") continue;
    if (ourEvent("codex", { type: "command", command: h.command }) === undefined) continue;
    if (!/^sha256:[0-9a-f]{64}$/.test(h.currentHash) || h.key.length > 4096) continue;
    if (!out.some((o) => o.key === h.key)) out.push({ key: h.key, hash: h.currentHash });
  }
  return out;
}

/** Asks `codex app-server` which of mem's hooks in `hooksFile` need trust (from `cwd`). Rejects on failure or after `timeoutMs`. */
export function codexHookHashes(codex: string, env: Record<string, string | undefined>, cwd: string, hooksFile: string, timeoutMs = 20_000): Promise<{ key: string; hash: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex, ["app-server"], { cwd, env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "ignore"] });
    let buf = "";
    let done = false;
    const finish = (err: Error | undefined, value?: { key: string; hash: string }[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill();
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = setTimeout(() => finish(new Error(`codex app-server did not answer within ${timeoutMs} ms`)), timeoutMs);
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    child.on("error", (e) => finish(e));
    child.on("close", () => finish(new Error("codex app-server closed before answering")));
    child.stdin.on("error", () => undefined);
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString("utf8");
      if (buf.length > 32 * 1024 * 1024) return finish(new Error("codex app-server answered too much"));
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let m: { id?: unknown; result?: unknown; error?: { message?: unknown } };
        try {
          m = JSON.parse(line) as typeof m;
        } catch {
          continue;
        }
        if (m.error !== undefined && (m.id === 1 || m.id === 2)) return finish(new Error(`codex app-server: ${String(m.error?.message ?? "error").slice(0, 200)}`));
        if (m.id === 1) {
          send({ method: "initialized" });
          send({ id: 2, method: "hooks/list", params: { cwds: [cwd] } });
        } else if (m.id === 2) finish(undefined, untrustedOurs(m.result, hooksFile));
      }
    });
    send({ id: 1, method: "initialize", params: { clientInfo: { name: "mem-install", version: "1" } } });
  });
}
