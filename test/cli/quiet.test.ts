import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { UsageError } from "../../src/cli/args.js";
import { COMMANDS } from "../../src/cli/main.js";
import { withQuietHelp } from "../../src/cli/quiet.js";
import { cleanEnv, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-quiet-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("every command takes -q / --quiet (table-driven over the command table: a new command without it fails here)", () => {
  for (const name of Object.keys(COMMANDS)) {
    for (const flag of ["-q", "--quiet"]) {
      test(`mem ${name} ${flag}: accepted (the parse stops at the next, unknown option, not at ${flag})`, async () => {
        const cmd = await COMMANDS[name]!();
        await assert.rejects(
          () => cmd.run([flag, "--no-such-option-zz"]),
          (err: Error) => err instanceof UsageError && /no-such-option-zz/.test(err.message) && !err.message.includes(`'${flag}'`),
        );
      });
    }
    test(`mem ${name} --help describes -q`, async () => {
      assert.match(withQuietHelp((await COMMANDS[name]!()).usage), /^ *-q, --quiet +\S/m);
    });
  }
});

describe("-q drops notes and warnings from stderr, never the output or the exit status", () => {
  const home = join(tmp, "home");
  const notes = join(tmp, "notes");
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, "a.md"), "# Deploy\n\nThe deploy uses blue-green switching.\n");
  // A provider configured that never answers (nothing listens on port 1, no model on disk): the vector note case.
  const env = { ...cleanEnv(join(tmp, "claude")), MEM_HOME: home, HOME: tmp, MEM_EMBED_ORDER: "ollama,transformers", MEM_OLLAMA_HOST: "http://127.0.0.1:1", MEM_MODELS_DIR: join(tmp, "models") };

  test("index, query, reindex: the 'no embedding model' note without -q, nothing on stderr with it", async () => {
    const loud = await runMem(["index", notes], { env });
    assert.equal(loud.code, 0, show(loud));
    assert.match(loud.stderr, /no embedding model: search is BM25 only/);
    const ix = await runMem(["index", notes, "-q"], { env });
    assert.equal(ix.code, 0, show(ix));
    assert.equal(ix.stderr, "", show(ix));

    rmSync(join(home, "no-model-said")); // said once a day: the stamp gone, the query says it again
    const q = await runMem(["query", "deploy"], { env, cwd: notes });
    assert.match(q.stderr, /no embedding model: search is BM25 only/);
    const qq = await runMem(["query", "deploy", "-q"], { env, cwd: notes });
    assert.equal(qq.code, 0, show(qq));
    assert.match(qq.stdout, /a\.md/);
    assert.equal(qq.stderr, "", show(qq));

    const r = await runMem(["reindex", "--quiet"], { env });
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stderr, "", show(r));
  });

  test("remember (already stored under a key), list and task list (a project nothing is stored under): the notes go, the output stays", async () => {
    const e = { ...env, MEM_EMBED_ORDER: "none" };
    const first = await runMem(["remember", "use pnpm", "--key", "k1", "--project", notes, "--new-project"], { env: e });
    assert.equal(first.code, 0, show(first));
    const again = await runMem(["remember", "use pnpm", "--key", "k1", "--project", notes], { env: e });
    assert.match(again.stderr, /already stored under this key/);
    const quiet = await runMem(["remember", "-q", "use pnpm", "--key", "k1", "--project", notes], { env: e });
    assert.equal(quiet.code, 0, show(quiet));
    assert.equal(quiet.stdout, first.stdout, "the id is the output");
    assert.equal(quiet.stderr, "");

    const elsewhere = join(tmp, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    for (const args of [["list"], ["task", "list"]]) {
      const loud = await runMem(args, { env: e, cwd: elsewhere });
      assert.notEqual(loud.stderr, "", `${args.join(" ")}: the unknown-project note\n${show(loud)}`);
      const q = await runMem([...args.slice(0, 1), "-q", ...args.slice(1)], { env: e, cwd: elsewhere });
      assert.equal(q.code, loud.code, show(q));
      assert.equal(q.stdout, loud.stdout);
      assert.equal(q.stderr, "", show(q));
    }
  });

  test("errors still print under -q, with the same exit status", async () => {
    const r = await runMem(["get", "-q", "mem:0000000000000000deadbeef"], { env: { ...env, MEM_EMBED_ORDER: "none" } });
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /^mem get: /m);
  });
});
