/**
 * What an adversarial review of the explorer found, each against a real server over a real store:
 * a search over every project links each result to its own project's page (not to a project named
 * "all"); a vector-only search with no embedding model is a clear 400, not a 500, and so is a
 * date of month 13; a run without a session id links to a timeline that answers; a form past the size limit is answered 413 (not a reset connection).
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { idOf } from "../../src/service/convert.js";
import { recordRun } from "../../src/inject/prompt-run.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { MAX_FORM_BYTES } from "../../src/web/server.js";
import { openBed, type Bed } from "./browse-bed.js";

let bed: Bed;
let idA: string;
let idB: string;
before(async () => {
  bed = await openBed("review");
  idA = idOf(bed.ctx.svc.put({ text: "Alpha keeps the quokka ledger in advisory locks", kind: "decision", project: bed.home.id }).memory);
  idB = idOf(bed.ctx.svc.put({ text: "Beta keeps the quokka ledger in wombat shards", kind: "decision", project: bed.other.id }).memory);
});
after(async () => {
  await bed?.close();
});

const hrefs = (body: string, path: string) => [...body.matchAll(new RegExp(`href="${bed.base}${path}([^"]*)"`, "g"))].map((m) => m[1]!.replaceAll("&amp;", "&"));

describe("a search over every project", () => {
  test("links each result to its memory's page in its own project, and every link answers", async () => {
    const r = await bed.get("/search?q=quokka+ledger&project=all");
    assert.equal(r.status, 200);
    const links = hrefs(r.body, "/memory");
    assert.equal(links.length, 2, r.body);
    for (const l of links) {
      const page = await bed.get(`/memory${l}`);
      assert.equal(page.status, 200, `/memory${l}`);
      assert.match(page.body, /quokka ledger/);
    }
    const toB = links.find((l) => l.includes(`id=${idB}&`));
    assert.ok(toB && new URLSearchParams(toB.slice(1)).get("project") === bed.other.id, `beta's result names beta: ${toB}`);
    assert.ok(links.some((l) => l === `?id=${idA}`));
  });
  test("the views it links to are not asked for a project named all", async () => {
    const r = await bed.get("/search?q=quokka+ledger&project=all");
    for (const path of ["/memories", "/legs", "/tasks", "/health"]) {
      for (const l of hrefs(r.body, path)) assert.ok(!/[?&]project=all(&|$)/.test(l), `${path}${l}`);
    }
    const legs = hrefs(r.body, "/legs").find((l) => l.includes("q="));
    assert.ok(legs);
    assert.equal((await bed.get(`/legs${legs}`)).status, 200);
  });
});

describe("careless requests", () => {
  test("a vector-only search with no embedding model: a clear 400 saying so, not an internal error", async () => {
    const r = await bed.get("/search?q=quokka&mode=vector");
    assert.equal(r.status, 400, r.body.slice(0, 500));
    assert.match(r.body, /vector search unavailable/);
  });
  test("a date that is no date (month 13) is a clear 400, not a search that silently finds nothing", async () => {
    for (const q of ["since=2026-13-45", "until=2026-00-10"]) {
      const r = await bed.get(`/search?q=quokka&${q}`);
      assert.equal(r.status, 400, q);
      assert.match(r.body, /must be a date: YYYY-MM-DD/);
    }
    assert.equal((await bed.get("/search?q=quokka&since=2026-01-31")).status, 200);
  });
  test("a prompt run recorded without a session id: its session link from /prompts answers", async () => {
    recordRun(bed.app.db, { at: Date.now(), session: cleanText(""), project: bed.home.id, hook: "prompt", ms: 12, mode: "bm25", prompt: "what keeps the quokka ledger safe", injected: undefined, ids: [], fates: [] }, () => undefined);
    const list = await bed.get("/prompts");
    const links = hrefs(list.body, "/session").filter((l) => l === "" || l.startsWith("?"));
    assert.ok(links.length > 0, list.body);
    for (const l of links) {
      const r = await bed.get(`/session${l}`);
      assert.equal(r.status, 200, `/session${l}`);
      assert.match(r.body, /what keeps the quokka ledger safe/);
    }
  });
  test("a form past the limit is answered 413 with the reason, and nothing is stored", async () => {
    const body = `text=${"a".repeat(MAX_FORM_BYTES + 10)}`;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: bed.server.port, path: `${bed.base}/memories/new`, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: bed.origin } }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      // chunked, as a browser streaming a large body may send it
      for (let i = 0; i < body.length; i += 65_536) req.write(body.slice(i, i + 65_536));
      req.end();
    });
    assert.equal(answer.status, 413);
    assert.match(answer.text, /at most 1,000,000 bytes/);
    assert.equal(bed.ctx.svc.list({ project: bed.home.id, limit: 10, offset: 0 }).total, 1);
  });
});
