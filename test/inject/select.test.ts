import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_INJECT, formatInjection, type Candidate } from "../../src/inject/format.js";
import { itemBody, itemsLength, layout, opensSource, type Placed } from "../../src/inject/layout.js";
import { DEFAULT_SELECT, evidencePool, selectEvidence } from "../../src/inject/select.js";
import { contentStems } from "../../src/inject/terms.js";
import { RECALL } from "../../src/render/frame.js";
import { redactText } from "../../src/inject/for-prompt.js";
import { queryTerms } from "../../src/retrieve/fts-query.js";
import { candidate, FILLER } from "./fixtures.js";

const cand = (over: Partial<Candidate>): Candidate => candidate("f", over);
const items = (text: string) => text.split("\n").filter((l) => l.startsWith("- ["));
const inject = (cands: Candidate[], prompt: string, budgetChars = 2_000) => formatInjection(cands, queryTerms(prompt), { ...DEFAULT_INJECT, budgetChars }, (s) => s);

describe("choosing the evidence within the budget", () => {
  test("a long chunk whose evidence sits at its end: that line is shown, with its own line number", () => {
    const lines = [...Array.from({ length: 30 }, (_, i) => FILLER(i)), "- We chose SQLite over Postgres because it needs no server."];
    const out = inject([cand({ text: lines.join("\n"), startLine: 10, endLine: 40 })], "why did we choose SQLite over Postgres", 600)!;
    const [first] = items(out.text);
    assert.match(first!, /^- \[[0-9a-f]{12} · memory\/storage\.md:\d+\] Storage: /);
    assert.ok(first!.includes("We chose SQLite over Postgres because it needs no server."), first);
    const line = Number(/storage\.md:(\d+)\]/.exec(first!)![1]);
    assert.ok(line >= 38 && line <= 40, `the item starts near the evidence (line 40), not at the chunk's start: ${line}`);
    assert.ok(!out.text.includes("On day 0 "), "the chunk's beginning is not what is shown");
    assert.ok(out.text.length <= 600);
  });

  test("the line after a match (its answer) is taken before the line before it", () => {
    const text = [FILLER(1), "- Dana: which port does the staging database listen on?", "- Sam: 6543, since the move.", FILLER(2)].join("\n");
    const chosen = selectEvidence([cand({ text, startLine: 1, endLine: 4 })], contentStems(queryTerms("staging database port")), { ...DEFAULT_SELECT, roomChars: 150, maxItems: 5 }, { redact: (s) => s });
    const shown = chosen.map((i) => i.line).join("\n");
    assert.match(shown, /which port does the staging database listen on\? (- )?Sam: 6543, since the move\./, shown);
    assert.ok(!shown.includes(FILLER(1).slice(2, 20)), `the line before the question is left for the budget: ${shown}`);
    assert.ok(DEFAULT_SELECT.afterMatch > DEFAULT_SELECT.beforeMatch);
  });

  test("two relevant chunks of one file: adjacent lines make one item, the heading shown once, both chunks' ids kept", () => {
    const a = cand({ text: ["- The store is SQLite.", "- We chose SQLite over Postgres: no server."].join("\n"), startLine: 3, endLine: 4 });
    const b = cand({ text: ["- We chose SQLite over Postgres: no server.", "- Postgres would need a server to run and back up."].join("\n"), startLine: 4, endLine: 5 });
    const out = inject([a, b], "why did we choose SQLite over Postgres")!;
    const shown = items(out.text);
    assert.equal(shown.length, 1, out.text);
    assert.equal(shown[0]!.match(/Storage: /g)?.length, 1, "the heading once");
    assert.equal(shown[0]!.match(/We chose SQLite over Postgres: no server\./g)?.length, 1, "the line both chunks hold, once");
    assert.ok(shown[0]!.includes("Postgres would need a server"), shown[0]);
    assert.match(shown[0]!, /storage\.md:3\]/);
    assert.deepEqual(new Set(out.ids), new Set([a.id, b.id]));
  });

  test("distant lines of one file are items of their own, the file's heading on the first only", () => {
    const text = ["- We chose SQLite for storage.", ...Array.from({ length: 12 }, (_, i) => FILLER(i)), "- Postgres was rejected: it needs a server."].join("\n");
    const out = inject([cand({ text, startLine: 1, endLine: 14 })], "why SQLite and not Postgres for storage", 800)!;
    const shown = items(out.text);
    assert.equal(shown.length, 2, out.text);
    assert.match(shown[0]!, /storage\.md:1\] Storage: We chose SQLite/);
    assert.match(shown[1]!, /storage\.md:1[34]\] (?!Storage)/);
    assert.ok(shown[1]!.includes("Postgres was rejected: it needs a server."), shown[1]);
  });

  test("a tag, an identifier or a bracketed span is never cut, whatever the room", () => {
    const line = `- [conv-9 D4:17] Dana: the flag lives in \`src/config/feature-flags.ts:isEnabledForTenant\` (see [ticket ENG-4411] and the runbook) and ${"it was discussed at length over many weeks ".repeat(4)} so we chose SQLite over Postgres [conv-9 D4:18].`;
    for (const budgetChars of [420, 500, 650, 900, 2_000]) {
      const out = inject([cand({ text: line })], "why did we choose SQLite over Postgres", budgetChars);
      if (!out) continue;
      for (const item of items(out.text)) {
        const opened = (item.match(/\[conv-/g) ?? []).length;
        assert.equal((item.match(/\[conv-9 D4:1[78]\]/g) ?? []).length, opened, `a tag whole: ${item}`);
        if (item.includes("src/config")) assert.ok(item.includes("`src/config/feature-flags.ts:isEnabledForTenant`"), item);
        if (item.includes("ENG-")) assert.ok(item.includes("[ticket ENG-4411]"), item);
      }
      assert.ok(out.text.length <= budgetChars);
    }
  });

  test("a sentence deep in a long line comes with the start of its line (its label or speaker)", () => {
    const line = `- [conv-3 D2:5] Gina: ${"Hey Jon, long time no talk, so much has happened. ".repeat(6)}I got a temporary job to cover the rent. ${"The studio keeps me busy most days of the week. ".repeat(6)}`;
    const out = inject([cand({ text: line })], "what temporary job covers the rent", 600)!;
    const [item] = items(out.text);
    assert.ok(item!.includes("[conv-3 D2:5] Gina:"), item);
    assert.ok(item!.includes("I got a temporary job to cover the rent."), item);
    assert.ok(item!.includes("…"), "what is left out is marked");
  });

  test("the line after the one that names the topic comes along when there is room (the answer follows the question)", () => {
    const text = ["- Ana: Why did we pick SQLite over Postgres in the end?", "- Ben: No server to run, and backups are one file copy.", ...Array.from({ length: 10 }, (_, i) => FILLER(i))].join("\n");
    const out = inject([cand({ text })], "why did we pick SQLite over Postgres")!;
    assert.ok(out.text.includes("No server to run"), out.text);
  });

  test("the number of items is what fits: many short memories fill the budget, more than five of them", () => {
    const notes = Array.from({ length: 30 }, (_, i) => cand({ path: `/p/memory/note-${i}.md`, headingPath: [`Note ${i}`], text: `We chose SQLite over Postgres for store ${i}.` }));
    const out = inject(notes, "why did we choose SQLite over Postgres")!;
    const n = items(out.text).length;
    assert.ok(n > 5, `${n} items`);
    assert.ok(out.text.length <= 2_000 && out.text.length > 1_700, `${out.text.length} chars: the budget is spent`);
    const half = inject(notes, "why did we choose SQLite over Postgres", 1_000)!;
    assert.ok(items(half.text).length < n, "a smaller budget holds fewer");
    assert.ok(half.text.length <= 1_000);
  });

  test("the item cap still bounds the count", () => {
    const notes = Array.from({ length: 30 }, (_, i) => cand({ path: `/p/memory/note-${i}.md`, text: `We chose SQLite over Postgres for store ${i}.` }));
    const out = formatInjection(notes, queryTerms("why did we choose SQLite over Postgres"), { ...DEFAULT_INJECT, maxItems: 3 }, (s) => s)!;
    assert.equal(items(out.text).length, 3);
    assert.equal(out.ids.length, 3);
  });

  test("the better evidence comes first, and only the chunks whose lines are shown are counted as shown", () => {
    // Lines apart: the line after a match takes a share of its score (tested above), which is not what this is about.
    const weak = cand({ path: "/p/memory/weak.md", text: ["- SQLite is fine.", FILLER(1), "- Postgres exists."].join("\n") });
    const strong = cand({ path: "/p/memory/strong.md", text: "- We chose SQLite over Postgres: the decision, for the laptop." });
    const out = formatInjection([weak, strong], queryTerms("why did we choose SQLite over Postgres for the laptop"), { ...DEFAULT_INJECT, budgetChars: 420 }, (s) => s)!;
    const shown = items(out.text);
    assert.match(shown[0]!, /strong\.md/);
    assert.deepEqual(out.ids, shown.length === 1 ? [strong.id] : [strong.id, weak.id]);
  });

  test("captured memories are items of their own, never joined to another of the same session", () => {
    const ev = (text: string) => cand({ path: "session:s1", kind: "decision", headingPath: ["decision"], startLine: 0, endLine: 0, text: `decision: ${text}` });
    const out = inject([ev("We chose SQLite over Postgres."), ev("SQLite over Postgres: keep the WAL on.")], "why did we choose SQLite over Postgres")!;
    assert.equal(items(out.text).length, 2, out.text);
    for (const l of items(out.text)) assert.match(l, /^- \[[0-9a-f]{12} · decision · session of an unknown day\] (We chose|SQLite over)/);
  });

  test("a result that passed on its meaning alone (a vector match, none of the words) shows its first lines", () => {
    const v = cand({ text: ["The embedded store keeps everything in one file.", "Backups copy that file."].join("\n"), legs: { vector: { rank: 1, score: 0.8 } } });
    const out = inject([v], "why did we choose SQLite over Postgres")!;
    assert.ok(out.text.includes("The embedded store keeps everything in one file."), out.text);
    assert.deepEqual(out.ids, [v.id]);
  });

  test("a piece's similarity, when a model gives one, ranks the pieces", () => {
    const c = cand({ text: ["- alpha line about storage", FILLER(1), "- beta line about storage"].join("\n") }); // apart: neighbours share scores
    const stems = contentStems(queryTerms("storage"));
    const pick = (favour: string) =>
      selectEvidence([c], stems, { ...DEFAULT_SELECT, roomChars: 80, maxItems: 5 }, { redact: (s) => s, similarity: (_, p) => (p.text.includes(favour) ? 1 : 0) })[0]!.line;
    assert.match(pick("beta"), /beta line/);
    assert.match(pick("alpha"), /alpha line/);
  });
});

describe("laying out the chosen pieces", () => {
  const piece = (over: Partial<Placed>): Placed => ({ cand: 0, source: "file:/p/a.md", seq: 0, lineSeq: 0, line: 1, part: 0, parts: 1, text: "x", score: 1, ...over });

  test("parts left out of a line are marked where they are", () => {
    const item = [piece({ line: 5, part: 0, parts: 4, text: "head." }), piece({ seq: 2, line: 5, part: 2, parts: 4, text: "third." }), piece({ seq: 4, lineSeq: 1, line: 6, part: 0, parts: 1, text: "next line" })];
    assert.deepEqual(itemBody(item), ["head.", "…", "third.", "…", "next line"]);
    assert.deepEqual(itemBody([piece({ part: 1, parts: 2, text: "tail" })]), ["…", "tail"]);
  });

  test("the measured length is the rendered length, for any choice", () => {
    for (let seed = 1; seed <= 200; seed++) {
      let r = seed;
      const rnd = (n: number) => (r = (r * 48271) % 2147483647) % n;
      const chosen: Placed[] = [];
      const used = new Set<string>();
      for (let i = 0; i < 1 + rnd(12); i++) {
        const source = `file:/p/${rnd(3)}.md`;
        const line = 1 + rnd(10);
        const parts = 1 + rnd(3);
        const part = rnd(parts);
        if (used.has(`${source}:${line}:${part}`)) continue;
        used.add(`${source}:${line}:${part}`);
        chosen.push(piece({ source, line, lineSeq: line - 1, seq: line * 3 + part, part, parts, text: "t".repeat(1 + rnd(40)), score: rnd(100), cand: rnd(4) }));
      }
      const prefix = (item: readonly Placed[], heading: boolean) => `- [${item[0]!.cand} · ${item[0]!.line}] ${heading ? "Heading: " : ""}`;
      const laid = layout(chosen);
      const rendered = laid.map((item, i) => `${prefix(item, opensSource(laid, i))}${itemBody(item).join(" ")}`);
      assert.equal(itemsLength(laid, prefix), rendered.reduce((s, l) => s + l.length + 1, 0), `seed ${seed}`);
      assert.equal(laid.flat().length, chosen.length, "every chosen piece in one item");
    }
  });
});

describe("the frame around the chosen evidence", () => {
  test("items are inside the recall frame, one per line", () => {
    const out = inject([cand({})], "why did we choose SQLite over Postgres")!;
    assert.ok(out.text.startsWith(RECALL.notice));
    const lines = out.text.split("\n");
    assert.equal(lines[1], `<${RECALL.tag}>`);
    assert.equal(lines.at(-1), `</${RECALL.tag}>`);
  });
});

describe("line numbers after a redacted secret", () => {
  test("a private key over several lines: the evidence after it keeps its own line number, the key shown nowhere", () => {
    const key = ["-----BEGIN RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEAx1y2z3abcdefghijklmnopqrstuv", "qwertyuiopasdfghjklzxcvbnm0123456789ABCDEFG", "-----END RSA PRIVATE KEY-----"];
    const lines = ["- The deploy key is below.", ...key, "- We chose SQLite over Postgres because it needs no server."];
    const c = cand({ text: lines.join("\n"), startLine: 20, endLine: 25 });
    const pool = evidencePool([c], DEFAULT_SELECT.maxPieceChars, redactText);
    assert.equal(pool.find((e) => e.text.includes("We chose SQLite"))?.line, 25, "line 25 of the file, as the chunk holds it");
    assert.equal(pool.find((e) => e.text.includes("REDACTED:private-key"))?.line, 21);
    const out = formatInjection([c], queryTerms("why did we choose SQLite over Postgres"), DEFAULT_INJECT, redactText)!;
    assert.ok(out.text.includes("We chose SQLite over Postgres"), out.text);
    assert.ok(!out.text.includes("MIIEow") && !out.text.includes("qwerty"), out.text);
  });
});

describe("a heading the text repeats is said once", () => {
  test("opensWith: the heading's words at the text's start, a whole word at the end, any case", async () => {
    const { opensWith } = await import("../../src/inject/items.js");
    const cases: [string, string, boolean][] = [
      ["Use ES256 for tokens. HS256 was rejected.", "Use ES256 for tokens", true],
      ["use es256 for tokens: HS256 was rejected.", "Use ES256 for tokens.", true],
      ["- Use  ES256 for tokens", "Use ES256 for tokens", true],
      ["Use ES256", "Use ES256", true],
      ["Use ES2560 for tokens", "Use ES256", false],
      ["We use ES256 for tokens", "Use ES256", false],
      ["Storage is SQLite.", "Storage", true],
      ["Storage is SQLite.", "", false],
      ["", "Storage", false],
    ];
    for (const [text, heading, want] of cases) assert.equal(opensWith(text, heading), want, `${JSON.stringify(text)} / ${JSON.stringify(heading)}`);
  });

  test("a shared record whose text opens with its title: the item does not read 'Title: Title …'", () => {
    const c = cand({ path: "/p/docs/decisions/0001-use-es256.md", kind: "decision", headingPath: ["Use ES256 for tokens"], text: "Use ES256 for tokens. HS256 was rejected: a shared secret in every service.", startLine: 9, endLine: 9 });
    const out = inject([c], "which algorithm signs our tokens, ES256 or HS256")!;
    const [line] = items(out.text);
    assert.ok(line, out.text);
    assert.equal(line.match(/Use ES256 for tokens/g)?.length, 1, line);
    assert.match(line, /\] Use ES256 for tokens\. HS256 was rejected/, line);
  });

  test("a heading the text does not repeat is still shown", () => {
    const c = cand({ path: "/p/docs/decisions/0002-signing.md", kind: "decision", headingPath: ["Token signing"], text: "Use ES256 for tokens. HS256 was rejected.", startLine: 9, endLine: 9 });
    const [line] = items(inject([c], "which algorithm signs our tokens, ES256 or HS256")!.text);
    assert.match(line!, /\] Token signing: Use ES256 for tokens\./, line);
  });
});
