/**
 * The identifier splitter shared by the index, the search and the floor: camelCase and PascalCase
 * names split into their words; words that are not identifiers (acronyms, prose, names written in
 * mixed case that are one word, random text) left whole.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { identifierParts, identifierWords } from "../../src/util/identifiers.js";

describe("identifierParts", () => {
  test("camelCase and PascalCase names split into their words", () => {
    const cases: [string, string[]][] = [
      ["getUserName", ["get", "user", "name"]],
      ["HTTPServerConfig", ["http", "server", "config"]],
      ["parseJSONBody", ["parse", "json", "body"]],
      ["XMLHttpRequest", ["xml", "http", "request"]],
      ["ChunkStore", ["chunk", "store"]],
      ["UserID", ["user", "id"]],
      ["IUserService", ["user", "service"]], // a C# interface's I is not a word
      ["isEnabled", ["is", "enabled"]],
      ["toString", ["to", "string"]],
      // Digits belong to the word before them: the tokenizer keeps "utf8" whole too.
      ["utf8Decode", ["utf8", "decode"]],
      ["sha256Sum", ["sha256", "sum"]],
      ["v2Api", ["v2", "api"]],
      ["HTTP2Server", ["http2", "server"]],
      ["s3Bucket", ["s3", "bucket"]],
      // A plural acronym is one word.
      ["getURLsFor", ["get", "urls", "for"]],
      ["listPRsByAuthor", ["list", "prs", "by", "author"]],
      // A name that is one word stays one inside an identifier.
      ["OAuth2Client", ["oauth2", "client"]],
      ["getIPv6Address", ["get", "ipv6", "address"]],
      ["JavaScriptEngine", ["javascript", "engine"]],
      ["iPhoneApp", ["iphone", "app"]],
      // Names whose parts mean what they say are split.
      ["PostgreSQL", ["postgre", "sql"]],
      ["macOS", ["mac", "os"]],
      ["MongoDB", ["mongo", "db"]],
      ["WebSocket", ["web", "socket"]],
    ];
    for (const [word, parts] of cases) assert.deepEqual(identifierParts(word), parts, word);
  });

  test("words that are not identifiers stay whole (precision)", () => {
    const whole = [
      // one case: acronyms, prose, capitalised words
      "JSON", "HTTP", "README", "The", "Capitalised", "plain", "username",
      // a letter before a digit, and names written in mixed case that are one word
      "OAuth2", "OAuth", "IPv6", "IPv4", "x86", "utf8", "iPhone", "iOS", "eBPF", "JavaScript", "TypeScript", "GitHub", "MySQL", "GraphQL",
      // plural acronyms and units
      "APIs", "TODOs", "IDs", "URLs", "kB", "MiB", "NaN",
      // one real word and a stray letter
      "ETag", "XPath", "xRange",
      // random text (base64, a token's shape): more than one one-letter piece
      "aGVsbG8gV29ybGQ", "dGhpcyBpcyBhIHRlc3Q",
      // separators: the tokenizer splits these itself
      "snake_case", "kebab-case", "a.b.c",
    ];
    for (const w of whole) assert.deepEqual(identifierParts(w), [], w);
  });

  test("a word too long or of too many parts is not taken for a name", () => {
    assert.deepEqual(identifierParts(`get${"Long".repeat(20)}`), [], "over 64 characters");
    assert.deepEqual(identifierParts("oneTwoThreeFourFiveSixSevenEightNine"), [], "nine parts");
    assert.deepEqual(identifierParts("oneTwoThreeFourFiveSixSevenEight").length, 8);
  });
});

describe("identifierWords", () => {
  test("the words of each distinct identifier of a text, in order, each identifier once", () => {
    const cases: [string, string[]][] = [
      ["Call getUserName, then getUserName again.", ["get", "user", "name"]],
      ["HTTPServerConfig loads; parseJSONBody parses.", ["http", "server", "config", "parse", "json", "body"]],
      ["user_name and user-name and user.name", []],
      ["The JSON API of PostgreSQL", ["postgre", "sql"]],
      ["façadeBuilder crée", ["façade", "builder"]],
      ["", []],
      ["x86_64 builds of OAuth2 on IPv6", []],
    ];
    for (const [text, words] of cases) assert.deepEqual(identifierWords(text), words, text);
  });

  test("every word is a piece of the text (lower-cased): nothing the text does not hold", () => {
    const text = "token=[REDACTED:token] getUserName aGVsbG8gV29ybGQ HTTPServerConfig ÆthelredTheUnready";
    for (const w of identifierWords(text)) assert.ok(text.toLowerCase().includes(w), w);
  });

  test("a huge text is split in time linear in its size", () => {
    const text = "getUserName setUserName ".repeat(50_000) + Array.from({ length: 5_000 }, (_, i) => `get${i}Thing`).join(" ");
    const t0 = performance.now();
    const words = identifierWords(text);
    assert.ok(performance.now() - t0 < 10_000, "linear: a quadratic split of this text takes minutes");
    assert.equal(words.length, 6 + 5_000 * 2);
  });
});
