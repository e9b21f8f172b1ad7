import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { BIN, cleanEnv, runMem, show } from "./mem-cli.js";

/** A `mem ui --port 0` child: its address (ending in `/`), and a way to stop it. */
export interface UiChild {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `mem ui --no-open --port 0 --json` with `env` in `cwd`; resolves once it printed where it listens. */
export function startUiChild(env: NodeJS.ProcessEnv, cwd: string, args: string[] = []): Promise<UiChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "ui", "--no-open", "--port", "0", "--json", ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mem ui did not start\n${out}\n${err}`));
    }, 20_000);
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (!line) return;
      clearTimeout(timer);
      const j = JSON.parse(line) as { url: string; port: number; pid: number };
      resolve({
        ...j,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mem ui exited (${code}) before it listened\n${out}\n${err}`));
    });
  });
}

/** A data home (private) and a project (a git top, notes under memory/), BM25 only; `notes` by file name. */
export async function uiHome(tmp: string, name: string, notes: Record<string, string>): Promise<{ home: string; proj: string; env: NodeJS.ProcessEnv }> {
  const home = join(tmp, `${name}-home`);
  const proj = join(tmp, name);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(join(proj, "memory"), { recursive: true });
  mkdirSync(join(proj, ".git"), { recursive: true });
  for (const [file, text] of Object.entries(notes)) writeFileSync(join(proj, "memory", file), text);
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, DISPLAY: "", WAYLAND_DISPLAY: "" };
  const r = await runMem(["index", join(proj, "memory"), "-q"], { env, cwd: proj });
  if (r.code !== 0) throw new Error(show(r));
  return { home, proj, env };
}

/** GETs a page: its status and body. */
export async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.text() };
}

/** A request straight to a server on 127.0.0.1, with headers exactly as given (fetch and a browser will not send a forged Host). */
export function rawRequest(port: number, path: string, headers: Record<string, string>, method = "GET"): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}
