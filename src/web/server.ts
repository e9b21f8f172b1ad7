/**
 * `mem ui`'s HTTP server: on 127.0.0.1 only, every address under `/TOKEN/`, the Host header checked
 * (a DNS-rebinding page is refused), no CORS (no Access-Control header is ever sent, so a page of
 * another origin can neither read an answer nor send a change it could read back), a change only
 * by POST whose Origin, when the browser sends one, is this server. Pages are rendered on the
 * server from templates that escape every value (./html.ts) under a Content-Security-Policy that
 * runs only the explorer's own script.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { MemoryError } from "../util/memory-error.js";
import { STYLE, SCRIPT } from "./assets.js";
import type { UiContext } from "./context.js";
import { checkOpenLink, hostAllowed, originAllowed, splitPath, tokenMatches } from "./guard.js";
import { html, Html } from "./html.js";
import { page } from "./layout.js";
import type { Answer, UiRequest } from "./request.js";
import { ROUTES } from "./routes.js";

/** How large a form may be (a memory's text is at most 64 kB, src/service/memory.ts). */
export const MAX_FORM_BYTES = 1_000_000;

const HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the pages'
  // own form POSTs, which the Origin check must refuse; the token still never leaves in a Referer.
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export interface UiServer {
  /** The address to open: `http://127.0.0.1:PORT/TOKEN/`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface UiOptions {
  ctx: UiContext;
  token: string;
  /** 0: any free port. */
  port: number;
  log: (line: string) => void;
}

export async function startUi(o: UiOptions): Promise<UiServer> {
  let port = o.port;
  /** Opening links this server already followed (each works once). */
  const usedLinks = new Set<string>();
  const server = createServer((req, res) => {
    handle(o, port, usedLinks, req, res).catch((err: unknown) => {
      o.log(`mem ui: ${(err as Error).stack ?? String(err)}`);
      // Said as it is (a damaged or lost store, a full disk): this page is the user's own, behind the token.
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", `mem ui: this page could not be made: ${(err as Error).message ?? String(err)}\n\n\`mem doctor\` checks the store and says how to fix it; the terminal running mem ui has the details.\n`);
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const addr = server.address();
  port = typeof addr === "object" && addr ? addr.port : o.port;
  return {
    url: `http://127.0.0.1:${port}/${o.token}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...HEADERS, "Content-Type": type, "Content-Length": String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

const refuse = (res: ServerResponse, status: number, why: string) => send(res, status, "text/plain; charset=utf-8", `mem ui: ${why}\n`);

async function handle(o: UiOptions, port: number, usedLinks: Set<string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!hostAllowed(req.headers.host, port)) return refuse(res, 421, "this server answers only to 127.0.0.1, localhost or [::1] on its own port");
  const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
  // An opening link (./guard.ts openLink): the browser is sent on to the page, once.
  if (url.pathname === "/open" && req.method === "GET") {
    const to = checkOpenLink(o.token, url.searchParams, Date.now(), usedLinks);
    return "path" in to ? send(res, 303, "text/plain; charset=utf-8", "", { Location: `/${o.token}${to.path}` }) : refuse(res, 403, to.refused);
  }
  const { token, rest } = splitPath(url.pathname);
  // Nothing of the store, not even whether a path exists, without the token.
  if (!tokenMatches(token, o.token)) return refuse(res, 403, "this address needs the token `mem ui` printed (run `mem ui` again to see it)");
  const base = `/${token}`;
  if (req.method === "GET" && rest === "/static/style.css") return send(res, 200, "text/css; charset=utf-8", STYLE);
  if (req.method === "GET" && rest === "/static/app.js") return send(res, 200, "text/javascript; charset=utf-8", SCRIPT);
  if (rest === "/") return send(res, 303, "text/plain; charset=utf-8", "", { Location: `${base}/search${url.search}` });
  const route = ROUTES.get(rest);
  if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST") return send(res, 405, "text/plain; charset=utf-8", "mem ui: method not allowed\n", { Allow: "GET, HEAD, POST" });
  if (!route) return answer(res, base, { status: 404, body: errorPage(base, "Not found", `There is no page ${rest}.`) }, req.method === "HEAD");
  let form = new URLSearchParams();
  if (req.method === "POST") {
    if (!route.post) return send(res, 405, "text/plain; charset=utf-8", "mem ui: method not allowed\n", { Allow: "GET, HEAD" });
    if (!originAllowed(req.headers.origin, port) || req.headers["sec-fetch-site"] === "cross-site") return refuse(res, 403, "a change must come from this server's own pages");
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") return refuse(res, 415, "a change is a form (application/x-www-form-urlencoded)");
    const body = await readBody(req, MAX_FORM_BYTES);
    if (body === undefined) return refuse(res, 413, `a form may be at most ${MAX_FORM_BYTES.toLocaleString("en")} bytes`);
    form = new URLSearchParams(body);
  } else if (!route.get) return send(res, 405, "text/plain; charset=utf-8", "mem ui: method not allowed\n", { Allow: "POST" });
  const request: UiRequest = { path: rest, query: url.searchParams, form, base };
  let out: Answer;
  try {
    out = req.method === "POST" ? await route.post!(o.ctx, request) : await route.get!(o.ctx, request);
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    out = { status: err.code === "not_found" || err.code === "forgotten" ? 404 : 400, body: errorPage(base, err.code === "not_found" ? "Not found" : "Not done", err.message) };
  }
  answer(res, base, out, req.method === "HEAD");
}

function answer(res: ServerResponse, base: string, out: Answer, head: boolean): void {
  if (out instanceof Html) send(res, 200, "text/html; charset=utf-8", head ? "" : out.value);
  else if ("redirect" in out) send(res, 303, "text/plain; charset=utf-8", "", { Location: `${base}${out.redirect}` });
  else send(res, out.status, "text/html; charset=utf-8", head ? "" : out.body.value);
}

function errorPage(base: string, title: string, message: string): Html {
  return page({ base, title, active: "", project: "", body: html`<h1>${title}</h1><p class="notice">${message}</p>` });
}

/**
 * The body, or undefined past `max` bytes: the rest is read and dropped (the server's request
 * timeout bounds how long), so the client gets the 413 rather than a reset connection.
 */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= max) parts.push(c);
      else parts.length = 0;
    });
    req.on("end", () => resolve(size > max ? undefined : Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
