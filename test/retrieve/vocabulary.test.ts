import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { conceptRarity, passesFloor, floorVerdict, stem, stemsFound, type Rarity } from "../../src/inject/floor.js";
import { DEFAULT_INJECT } from "../../src/inject/types.js";
import type { Candidate } from "../../src/inject/types.js";
import { contentStems } from "../../src/inject/terms.js";
import { bm25Leg } from "../../src/retrieve/bm25.js";
import { queryTerms, searchForms, toMatchExpression } from "../../src/retrieve/fts-query.js";
import { BACKGROUND_DOCS, EVEN, idf, storeRarity } from "../../src/retrieve/rarity.js";
import { alternativesOf } from "../../src/retrieve/vocabulary.js";
import { identifierParts } from "../../src/util/identifiers.js";
import { ChunkStore, type NewChunk } from "../../src/store/chunks.js";
import { openDb, type Db } from "../../src/store/db.js";
import { clean } from "../../src/redact/clean.cjs";

describe("the vocabulary of the trade", () => {
  test("short names, their long forms and word forms are each other's alternatives", () => {
    const cases: [string, string[]][] = [
      ["postgres", ["postgresql"]],
      ["postgresql", ["postgres"]],
      ["k8s", ["kubernetes"]],
      ["kubernetes", ["k8s"]],
      ["tf", ["terraform"]],
      ["gha", ["github actions"]],
      ["js", ["javascript"]],
      ["ts", ["typescript"]],
      ["db", ["database"]],
      ["auth", ["authentication", "authorization"]],
      ["sg", ["security group"]],
      ["chose", ["choose", "chosen", "choice"]],
      ["deploy", ["deployment"]],
      ["decision", ["decide"]],
      ["wrote", ["write", "written"]],
    ];
    for (const [word, expected] of cases) for (const e of expected) assert.ok(alternativesOf(word).includes(e), `${word} → ${e}: ${alternativesOf(word).join(", ")}`);
  });

  test("alternatives are not transitive, and plain words have none", () => {
    assert.ok(!alternativesOf("authentication").includes("authorization"), "authentication is not authorization");
    assert.ok(alternativesOf("authentication").includes("auth"));
    for (const w of ["sqlite", "hook", "the", "lancedb", ""]) assert.deepEqual(alternativesOf(w), [], w);
  });

  test("identifiers split into their words", () => {
    const cases: [string, string[]][] = [
      ["getUserName", ["get", "user", "name"]],
      ["HTTPServer", ["http", "server"]],
      ["parseJSONBody", ["parse", "json", "body"]],
      ["v2Api", ["v2", "api"]],
      ["UserID", ["user", "id"]],
      ["plain", []],
      ["PLAIN", []],
      ["Capitalised", []],
      ["snake_case", []],
    ];
    for (const [word, parts] of cases) assert.deepEqual(identifierParts(word), parts, word);
  });

  test("the search looks for every form, and a quoted form is never FTS5 syntax", () => {
    assert.ok(searchForms("is postgres up?").includes("postgresql"));
    assert.ok(searchForms("where is getUserName defined").includes("get user name"));
    assert.ok(searchForms("k8s ingress").includes("kubernetes"));
    assert.deepEqual(queryTerms("is postgres up?"), ["postgres", "up"], "the terms themselves are unchanged");
    for (const term of toMatchExpression('sg "x" OR k8s NEAR(getUserName)')!.split(" OR ")) assert.match(term, /^"[\p{L}\p{N}_ ]+"$/u);
  });
});

describe("the vocabulary on a real FTS5 index", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "decision", tier: "warm", heading: "Decisions", startLine: 1, endLine: 2, text, tags: [], date: "2026-10-02", metadata: {} });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-vocab-"));
    db = openDb(join(dir, "mem.sqlite"));
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "decisions.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        chunk("c-pg", "The API keeps its rows in PostgreSQL 15 with logical replication."),
        chunk("c-k8s", "Services run on Kubernetes; the ingress controller terminates TLS."),
        chunk("c-sg", "Each security group rule is its own Terraform resource."),
        chunk("c-choose", "We choose Redis for the job queue."),
        chunk("c-ident", "The helper get_user_name reads the session."),
        chunk("c-deploy", "The deployment runs every night from the release branch."),
        chunk("c-other", "Unrelated: the office plants are watered on Mondays."),
      ]),
      1_000,
    );
  });

  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("a shortened name, another word form or an identifier finds the chunk that uses the other form", () => {
    const cases: [string, string][] = [
      ["postgres replication", "c-pg"],
      ["what runs on k8s", "c-k8s"],
      ["why is every sg rule separate", "c-sg"],
      ["why did we pick redis, who chose it", "c-choose"],
      ["where is getUserName", "c-ident"],
      ["when do we deploy", "c-deploy"],
    ];
    for (const [q, id] of cases) assert.equal(bm25Leg(db, q, {}, 5)[0]?.id, id, q);
  });

  test("the alternatives add no false match: a word with no alternative finds only its own chunks", () => {
    assert.deepEqual(bm25Leg(db, "office plants", {}, 5).map((h) => h.id), ["c-other"]);
  });

  test("storeRarity: the store's rare words weigh more than its common ones, unknown words most", () => {
    const r = storeRarity(db);
    assert.ok(r(stem("kubernetes")) > r(stem("the")), "kubernetes (1 chunk) over the (6 chunks)");
    assert.equal(r(stem("zeppelin")), idf(0, 7 + BACKGROUND_DOCS));
    assert.equal(r(stem("kubernetes")), idf(1, 7 + BACKGROUND_DOCS));
  });

  test("conceptRarity: a short name is as common as its long form in this store", () => {
    const r = storeRarity(db);
    assert.equal(r(stem("sg")), idf(0, 7 + BACKGROUND_DOCS), "the store never says sg");
    assert.ok(conceptRarity(r)(stem("sg")) < r(stem("sg")), "but it says security group");
    assert.equal(conceptRarity(EVEN), EVEN);
  });
});

describe("what the stemmer leaves apart: British and American spellings, agent nouns, abbreviations", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "decision", tier: "warm", heading: "Decisions", startLine: 1, endLine: 2, text, tags: [], date: "2026-10-02", metadata: {} });
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-spelling-"));
    db = openDb(join(dir, "mem.sqlite"));
    new ChunkStore(db).replaceSource(
      clean({ project: "p1", path: "records.md", kind: "markdown", tier: "warm", size: 100, mtimeMs: 1, hash: "h1", metadata: {} }),
      clean([
        chunk("c-license", "Tesseract was kept: its license is Apache 2.0, the other engines' licenses forbid bundling."),
        chunk("c-colour", "The theme's colour palette follows the brand guide."),
        chunk("c-normalize", "We normalize every DOI to lower case before comparing."),
        chunk("c-parse", "Picocli parses the command line from annotations on the command classes."),
        chunk("c-di", "Services get their collaborators as constructor parameters, wired by an inversion of control container."),
        chunk("c-other", "The office plants are watered on Mondays."),
      ]),
      1_000,
    );
  });
  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("each form of a pair is the other's alternative (table)", () => {
    const cases: [string, string][] = [
      ["licence", "license"],
      ["licences", "licenses"],
      ["license", "licence"],
      ["colour", "color"],
      ["color", "colour"],
      ["behaviour", "behavior"],
      ["normalise", "normalize"],
      ["serialisation", "serialization"],
      ["centre", "center"],
      ["catalogue", "catalog"],
      ["parser", "parse"],
      ["parse", "parser"],
      ["logger", "log"],
      ["printer", "print"],
      ["ioc", "inversion of control"],
      ["ctor", "constructor"],
      ["l10n", "localization"],
      ["a11y", "accessibility"],
      ["rdbms", "relational database"],
      ["argv", "command line arguments"],
    ];
    for (const [word, other] of cases) assert.ok(alternativesOf(word).includes(other), `${word} → ${other}: ${alternativesOf(word).join(", ")}`);
  });

  test("a question in one form finds the text written in the other, and the floor counts the word as held (table)", () => {
    const cases: [string, string, string][] = [
      ["which engines were ruled out by their licences", "licences", "c-license"],
      ["what colour palette does the theme use", "colour", "c-colour"],
      ["do we normalise the DOI before comparing", "normalise", "c-normalize"],
      ["where is the color palette", "color", "c-colour"],
      ["which argv parser do we use", "parser", "c-parse"],
      ["do we use an ioc framework", "ioc", "c-di"],
      ["what goes in a ctor", "ctor", "c-di"],
    ];
    for (const [q, word, id] of cases) {
      assert.equal(bm25Leg(db, q, {}, 5)[0]?.id, id, q);
      const text = db.prepare("SELECT text FROM chunks WHERE id = ?").pluck().get(id) as string;
      assert.ok(stemsFound(text, new Set([stem(word)])).has(stem(word)), `${word} held by ${id}`);
    }
  });

  test("a pair adds no false match", () => {
    assert.deepEqual(bm25Leg(db, "office plants", {}, 5).map((h) => h.id), ["c-other"]);
    for (const word of ["licence", "parser", "ioc"]) assert.ok(!stemsFound("the office plants", new Set([stem(word)])).has(stem(word)), word);
  });
});

describe("storeRarity kept while the index is unchanged", () => {
  let dir = "";
  let db: Db;
  const chunk = (id: string, text: string): NewChunk => ({ id, kind: "decision", tier: "warm", heading: "", startLine: 1, endLine: 1, text, tags: [], date: null, metadata: {} });
  const source = (path: string, texts: string[]) =>
    new ChunkStore(db).replaceSource(clean({ project: "p1", path, kind: "markdown", tier: "warm", size: 1, mtimeMs: 1, hash: path + texts.join(), metadata: {} }), clean(texts.map((t, i) => chunk(`${path}-${i}`, t))), 1_000);
  /** What the rarity is by definition: the index's own count of the word, read now, over every chunk. */
  const fresh = (s: string) => {
    const df = (db.prepare("SELECT doc FROM temp.mem_chunk_vocab WHERE term = ?").pluck().get(s) as number | undefined) ?? 0;
    return idf(df, (db.prepare("SELECT count(*) FROM chunks").pluck().get() as number) + BACKGROUND_DOCS);
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "mem-rarity-"));
    db = openDb(join(dir, "mem.sqlite"));
  });
  after(() => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("a chunk added, a source written again, a source removed: the next prompt's rarity is the store's as it is then", () => {
    const words = ["harbor", "lantern", "zeppelin"].map((w) => stem(w));
    const steps: [string, () => void][] = [
      ["first notes", () => source("a.md", ["the harbor lantern", "a harbor at night", "the quiet meadow"])],
      ["a note added", () => source("b.md", ["lantern light", "another lantern", "a zeppelin"])],
      ["a note written again", () => source("a.md", ["the meadow"])],
      ["a note removed", () => new ChunkStore(db).deleteSource(new ChunkStore(db).getSource("p1", "b.md")!.id)],
    ];
    for (const [what, change] of steps) {
      change();
      const r = storeRarity(db);
      for (const w of words) assert.equal(r(w), fresh(w), `${what}: ${w}`);
      const again = storeRarity(db); // the same index: counts kept
      for (const w of words) assert.equal(again(w), fresh(w), `${what}, asked again: ${w}`);
    }
  });
});

describe("the floor with the vocabulary and the store's rarity", () => {
  const cand = (text: string): Candidate => ({ id: "c1", text, path: "/p/notes.md", startLine: 1, endLine: 2, headingPath: [], kind: "markdown", date: "2026-10-02", project: "/p", legs: { bm25: { rank: 1, score: 5 } } });
  const stemsOf = (prompt: string) => contentStems(queryTerms(prompt));
  /** A store where the listed stems have these document frequencies out of 1,000 chunks; others are absent. */
  const rarityOf = (df: Record<string, number>): Rarity => (s) => idf(df[s] ?? 0, 1_000);

  test("a word is found by any of its forms; a phrase only with every word", () => {
    const cases: [string, string, boolean][] = [
      ["postgres", "We moved to PostgreSQL.", true],
      ["sg", "one security group per service", true],
      ["sg", "security is everyone's job", false],
      ["k8s", "the Kubernetes cluster", true],
      ["chose", "why we choose Redis", true],
      ["deploy", "the nightly deployment", true],
      ["authentication", "authorization rules", false],
      // A long form's stem is another word's too: the floor takes no alternatives for it.
      ["product", "the prod database", false],
      ["product", "we produce reports", false],
      ["specific", "the spec says", false],
      ["author", "auth tokens", false],
      ["operator", "the ops team", false],
      ["inform", "the info page", false],
      ["perform", "perf regressions", false],
    ];
    for (const [word, text, found] of cases) assert.equal(stemsFound(text, new Set([stem(word)])).has(stem(word)), found, `${word} in "${text}"`);
  });

  test("the words of a chunk's identifiers count; names that are one word do not split (table)", () => {
    const cases: [string, string, boolean][] = [
      ["user", "getUserName reads the cookie", true],
      ["name", "getUserName reads the cookie", true],
      ["server", "HTTPServerConfig holds the port", true],
      ["config", "HTTPServerConfig holds the port", true],
      ["decode", "utf8Decode the body first", true],
      ["order", "fetchOrderTotals runs nightly", true],
      ["user", "the username field", false],
      ["java", "the JavaScript bundle", false],
      ["type", "TypeScript strict mode", false],
      ["auth", "OAuth2 login", false],
    ];
    for (const [word, text, found] of cases) assert.equal(stemsFound(text, new Set([stem(word)])).has(stem(word)), found, `${word} in "${text}"`);
    const prompt = stemsOf("how do we get the user name");
    assert.equal(passesFloor(cand("getUserName reads the login from the cookie."), prompt, DEFAULT_INJECT, EVEN), true);
    assert.equal(passesFloor(cand("saveOrder writes the invoice."), prompt, DEFAULT_INJECT, EVEN), false);
  });

  test("rare, specific words carry a match; common ones do not (table)", () => {
    const df = { team: 300, anoth: 250, hostnam: 4, ingress: 6, servic: 400, own: 200 };
    const prompt = stemsOf("which team owns the ingress hostname for another service");
    const cases: [string, boolean][] = [
      ["The ingress controller routes each hostname to its service.", true],
      ["Ask another team.", false],
      ["The team owns another service.", false],
      ["Every hostname resolves through the ingress.", true],
    ];
    for (const [text, pass] of cases) {
      const v = floorVerdict(cand(text), prompt, DEFAULT_INJECT, rarityOf(df));
      assert.equal(v.pass, pass, `${text}: ${v.reason}`);
      assert.equal(passesFloor(cand(text), prompt, DEFAULT_INJECT, rarityOf(df)), pass);
    }
  });

  test("a word the store never uses counts against a match (a prompt about something not stored injects nothing)", () => {
    const df = { redi: 5, cach: 8 };
    const prompt = stemsOf("how does the redis cache interact with the quantum flux capacitor");
    assert.equal(passesFloor(cand("Redis is our cache."), prompt, DEFAULT_INJECT, rarityOf(df)), false);
    assert.equal(passesFloor(cand("Redis is our cache."), stemsOf("how does the redis cache evict"), DEFAULT_INJECT, rarityOf({ ...df, evict: 3 })), true);
  });

  test("a shortened word counts as matched, weighed as its long form", () => {
    const df = { postgresql: 20, replic: 10, lag: 5 };
    const r = conceptRarity(rarityOf(df));
    assert.equal(passesFloor(cand("PostgreSQL replication lag alerts"), stemsOf("postgres replication lag"), DEFAULT_INJECT, r), true);
  });
});
