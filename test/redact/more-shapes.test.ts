/**
 * The second corpus (test/redact/held-out-shapes.ts): each shape redacted exactly (the secret replaced, its
 * context kept), counted and kinded, and redacting twice equals redacting once. With the first corpus the
 * shapes number more than 250.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { redact, redactDeep } from "../../src/redact/redact.cjs";
import { assertRedacted, secretCases } from "../helpers/secrets.js";
import { heldOutCases } from "./held-out-shapes.js";


describe("redact: the held-out corpus", () => {
  const cases = heldOutCases();
  test("has at least 100 new shapes, none a text of the first corpus", () => {
    assert.ok(new Set(cases.map((k) => k.name)).size >= 100, `${cases.length} cases`);
    const first = new Set(secretCases().map((k) => k.name));
    assert.deepEqual(cases.filter((k) => first.has(k.name)).map((k) => k.name), []);
    assert.ok(first.size + cases.length >= 250);
  });
  for (const k of cases) {
    test(`redacts: ${k.name}`, () => {
      assertRedacted(k, redact(k.text));
    });
  }
  test("redacting twice is the same as redacting once", () => {
    for (const k of cases) {
      const once = redact(k.text).text;
      assert.equal(redact(once).text, once, k.name);
    }
  });
  test("inside JSON-like values too (a hook payload), keys included", () => {
    for (const k of cases) {
      const out = JSON.stringify(redactDeep({ tool_input: { command: k.text }, [k.text.split("\n")[0]!]: [k.text] }, { keys: true }).value);
      for (const [s] of k.secrets) assert.ok(!out.includes(JSON.stringify(s).slice(1, -1)), `${k.name}: ${out}`);
    }
  });
});

describe("the second round's rules stay linear on hostile input", () => {
  const MB5 = 5 * 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB5 / unit.length)).slice(0, MB5);
  const units = [
    "Cookie: a=", "Cookie: sessionid=abcdefghij0123456789; ", '"api_keys": ["a", ', "token='", "token: |\n  a\n", 'API_TOKEN="abc\n',
    "use passphrase a b ", "the password for x ", "password to ", "user a, pass ", "Secret key: ", "$password = '", "| DB_PASSWORD | ",
    '\\\\\\"password\\\\\\": \\\\\\"', '<property name="password">', "ENV API_TOKEN ", "net user a ", "sqlplus a/", "mc alias set a b c ",
    "machine a password b ", "$6$abcdefgh$", "$2b$12$", "---- BEGIN SSH2 PRIVATE KEY ----\n", "-----BEGIN OpenVPN Static key V1-----\n",
    'expect "password"\nsend "', "http -a u:", "knife[:token] = '", "redis://a:b/c", "pw: ", "passphrase is a b c d e f g h i j k l m n ",
  ];
  for (const unit of units) {
    test(`5 MB of ${JSON.stringify(unit)}`, { timeout: 60_000 }, () => {
      const text = fill(unit);
      const r = redact(text);
      assert.ok(r.text.length <= text.length + 40 * r.count);
    });
  }
});
