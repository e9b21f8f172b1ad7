/**
 * A real explorer for the browse and correct tests: a temp data home, the real store opened by
 * `openApp` (SQLite, LanceDB when asked), `startUi` on a free port of 127.0.0.1, and requests over
 * real HTTP. No embedding provider (MEM_EMBED_ORDER=none): search is BM25 alone.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { indexPaths } from "../../indexer/pipeline.js";
import { openApp, type App } from "../../src/app.js";
import { resolveProject, type Project } from "../../src/project/identity.js";
import { uiContext, type UiContext } from "../../src/web/context.js";
import { newToken } from "../../src/web/guard.js";
import { startUi, type UiServer } from "../../src/web/server.js";
import { cleanEnv } from "../helpers/mem-cli.js";

export interface Bed {
  tmp: string;
  env: NodeJS.ProcessEnv;
  app: App;
  ctx: UiContext;
  home: Project;
  /** A second project's directory and project. */
  otherDir: string;
  other: Project;
  server: UiServer;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `/TOKEN` */
  base: string;
  get(path: string): Promise<Page>;
  post(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Page>;
  /** Writes a file under the home project's directory; returns its path. */
  write(rel: string, text: string): string;
  index(project: Project, root: string): Promise<void>;
  close(): Promise<void>;
}

export interface Page {
  status: number;
  body: string;
  location: string | null;
}

export async function openBed(tag: string): Promise<Bed> {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), `mem-web-${tag}-`)));
  const dir = join(tmp, "proj");
  const otherDir = join(tmp, "other");
  for (const d of [dir, otherDir]) mkdirSync(join(d, ".git"), { recursive: true });
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: join(tmp, "home"), HOME: tmp };
  const app = openApp(env);
  const home = resolveProject(dir);
  const ctx = uiContext(app, home, dir);
  const token = newToken();
  const server = await startUi({ ctx, token, port: 0, log: () => undefined });
  const origin = `http://127.0.0.1:${server.port}`;
  const base = `/${token}`;
  const read = async (r: Response): Promise<Page> => ({ status: r.status, body: await r.text(), location: r.headers.get("location") });
  return {
    tmp,
    env,
    app,
    ctx,
    home,
    otherDir,
    other: resolveProject(otherDir),
    server,
    origin,
    base,
    get: async (path) => read(await fetch(`${origin}${base}${path}`, { redirect: "manual" })),
    post: async (path, fields, headers = { origin }) =>
      read(await fetch(`${origin}${base}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() })),
    write(rel, text) {
      const p = join(dir, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
    async index(project, root) {
      await indexPaths({ db: app.db, config: app.config, providers: [], vectors: app.vectors }, { roots: [root], project, full: false });
    },
    async close() {
      await server.close();
      await app.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The `data-*` values of a page's elements with that attribute, in order. */
export function dataOf(body: string, attr: string): string[] {
  return [...body.matchAll(new RegExp(`data-${attr}="([^"]*)"`, "g"))].map((m) => m[1]!);
}

/** A redirect's path after the token, asserting it is a 303 into this explorer. */
export function redirected(bed: Bed, page: Page): string {
  assert.equal(page.status, 303, `a redirect expected, got ${page.status}\n${page.body.slice(0, 2000)}`);
  assert.ok(page.location?.startsWith(`${bed.base}/`), `into the explorer: ${page.location}`);
  return page.location!.slice(bed.base.length);
}

/** The text of the first element with this class (a crude read, enough for the pages' own markup). */
export function textOf(body: string, cls: string): string | undefined {
  return new RegExp(`class="${cls}"[^>]*>([\\s\\S]*?)</`).exec(body)?.[1];
}
