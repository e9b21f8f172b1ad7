/**
 * The third corpus (test/redact/third-shapes.ts): no secret of a shape survives redaction, the text around it is
 * kept (what is left equals the text with each secret cut out, up to the markers), redacting twice equals
 * redacting once, and the strings that must survive (public keys, hashes, prose about the same things) come out
 * byte for byte.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { redact, redactDeep } from "../../src/redact/redact.cjs";
import { THIRD_SURVIVE, thirdCases } from "./third-shapes.js";

/** The text with every secret and every marker taken out: what redaction must leave as it was. */
const context = (text: string, secrets: string[]) =>
  [...secrets].sort((a, b) => b.length - a.length).reduce((t, s) => t.split(s).join("\u0000"), text).replace(/\[REDACTED:[\w-]+\]/g, "\u0000").replace(/\u0000+/g, "\u0000");

describe("redact: the third corpus", () => {
  const cases = thirdCases();
  test("has at least 100 shapes with distinct names", () => {
    assert.ok(new Set(cases.map((k) => k.name)).size >= 100, `${cases.length} cases`);
  });
  for (const k of cases) {
    test(`redacts: ${k.name}`, () => {
      const r = redact(k.text);
      for (const [s] of k.secrets) assert.ok(!r.text.includes(s), `secret survived in:\n${r.text}`);
      assert.ok(r.count >= 1);
      assert.equal(context(r.text, []), context(k.text, k.secrets.map(([s]) => s)), "the context around the secrets is kept");
      assert.equal(redact(r.text).text, r.text, "redacting twice is the same as once");
    });
  }
  test("inside JSON-like values too (a hook payload)", () => {
    for (const k of cases) {
      const out = JSON.stringify(redactDeep({ tool_input: { command: k.text } }, { keys: true }).value);
      for (const [s] of k.secrets) assert.ok(!out.includes(JSON.stringify(s).slice(1, -1)), `${k.name}: ${out}`);
    }
  });
});

describe("redact: what must survive next to the third corpus's classes", () => {
  for (const text of THIRD_SURVIVE) {
    test(JSON.stringify(text.slice(0, 60)), () => {
      assert.equal(redact(text).text, text);
    });
  }
});

describe("the third round's rules stay linear on hostile input", () => {
  const MB2 = 2 * 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB2 / unit.length)).slice(0, MB2);
  const units = [
    "ssh a (pass ", "ssh a # pw ", "scott/tiger@", "a/b@//h:1/", "DEPLOY_TOKEN=ab\\\n", 'API_KEY = ("ab" ', "'ab' + ", "[REDACTED:token]' + '",
    "private key 0x", "Wallet('", "?X-Amz-Signature=", "passphrase \"a b ", "password: ", "Passwort ", "mot de passe : ", "密码是", "パスワード：",
    "login: a / ", "user a password ", "creds are a with ", "the API key we got is ", "| password |\n|---|\n| ", "| a |\n", "recovery codes:\n",
    "1234-5678\n", "seed phrase: ", "abc def ghi ", "mnemonic \"", "echo 'a' | sudo ", "printf '%s' ", "openssl enc -k ",
  ];
  for (const unit of units) {
    test(`2 MB of ${JSON.stringify(unit)}`, { timeout: 60_000 }, () => {
      const text = fill(unit);
      const r = redact(text);
      assert.ok(r.text.length <= text.length + 40 * r.count);
    });
  }
});
