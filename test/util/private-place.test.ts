/**
 * The private places' checks (src/util/private-place.cts), as one account can exercise them: the
 * rules for what may be used (table-driven, on real files), a loosened directory of ours closed
 * again, a link or a file others may write refused, a file read only through no link.
 */
import assert from "node:assert/strict";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { dirRefusal, fileRefusal, inspectDir, ownFileThere, privateDir, readPrivate } from "../../src/util/private-place.cjs";

const tmp = mkdtempSync(join(tmpdir(), "mem-private-place-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const uid = process.getuid?.() ?? 0;
const posix = process.platform === "win32" ? "no POSIX modes" : false;

describe("private places", { skip: posix }, () => {
  const made = (name: string, make: (p: string) => void) => {
    const p = join(tmp, name);
    make(p);
    return p;
  };
  const dirCases: { name: string; make: (p: string) => void; as: number; want: RegExp | undefined }[] = [
    { name: "a directory of ours", make: (p) => mkdirSync(p, { mode: 0o700 }), as: uid, want: undefined },
    { name: "a directory of ours open to all (closed later, not refused)", make: (p) => {
        mkdirSync(p);
        chmodSync(p, 0o777);
      }, as: uid, want: undefined },
    { name: "someone else's directory", make: (p) => mkdirSync(p, { mode: 0o700 }), as: uid + 1, want: /belongs to another user \(uid \d+, you are \d+\)/ },
    { name: "a symlink to a directory", make: (p) => symlinkSync(tmp, p), as: uid, want: /is a symlink/ },
    { name: "a file", make: (p) => writeFileSync(p, ""), as: uid, want: /is not a directory/ },
  ];
  dirCases.forEach((c, i) => {
    test(`directory rule: ${c.name}`, () => {
      const p = made(`d${i}`, c.make);
      const why = dirRefusal(p, lstatSync(p), c.as);
      if (c.want === undefined) assert.equal(why, undefined);
      else assert.match(why ?? "", c.want);
    });
  });

  const fileCases: { name: string; mode: number; as: number; link?: boolean; want: RegExp | undefined }[] = [
    { name: "a private file of ours", mode: 0o600, as: uid, want: undefined },
    { name: "a file of ours others may read", mode: 0o644, as: uid, want: undefined },
    { name: "a file of ours others may write", mode: 0o666, as: uid, want: /writable by other users \(mode 666\)/ },
    { name: "someone else's file", mode: 0o600, as: uid + 1, want: /belongs to another user/ },
    { name: "a symlink", mode: 0o600, as: uid, link: true, want: /is a symlink/ },
  ];
  fileCases.forEach((c, i) => {
    test(`file rule: ${c.name}`, () => {
      const target = join(tmp, `f${i}`);
      writeFileSync(target, "x");
      chmodSync(target, c.mode);
      const p = c.link ? join(tmp, `f${i}-link`) : target;
      if (c.link) symlinkSync(target, p);
      const why = fileRefusal(p, lstatSync(p), c.as);
      if (c.want === undefined) assert.equal(why, undefined);
      else assert.match(why ?? "", c.want);
    });
  });

  test("privateDir makes 0700, closes a loosened one of ours (saying from what), refuses a link", () => {
    const fresh = join(tmp, "fresh");
    assert.deepEqual(privateDir(fresh), { ok: true });
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    chmodSync(fresh, 0o777);
    assert.equal(inspectDir(fresh).state, "ours");
    assert.deepEqual(inspectDir(fresh), { state: "ours", loose: true });
    const v = privateDir(fresh);
    assert.ok(v.ok && /mode 777\); closed to 700/.test(v.tightened ?? ""), JSON.stringify(v));
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    const link = join(tmp, "link-dir");
    symlinkSync(fresh, link);
    const refused = privateDir(link);
    assert.ok(!refused.ok && /symlink/.test(refused.why));
    assert.equal(inspectDir(link).state, "refused");
    assert.deepEqual(inspectDir(join(tmp, "none")), { state: "absent" });
  });

  test("readPrivate reads a file of ours, refuses a link to one and one others may write; ownFileThere sees no link", () => {
    const f = join(tmp, "spool.jsonl");
    writeFileSync(f, "line\n", { mode: 0o600 });
    const r = readPrivate(f, 1024);
    assert.ok(r.ok && r.data.toString() === "line\n");
    const l = join(tmp, "spool-link.jsonl");
    symlinkSync(f, l);
    const viaLink = readPrivate(l, 1024);
    assert.ok(!viaLink.ok && !viaLink.absent && /symlink/.test(viaLink.why), JSON.stringify(viaLink));
    assert.equal(ownFileThere(f), true);
    assert.equal(ownFileThere(l), false);
    chmodSync(f, 0o622);
    const open = readPrivate(f, 1024);
    assert.ok(!open.ok && /writable by other users/.test(open.why));
    const none = readPrivate(join(tmp, "none"), 1024);
    assert.ok(!none.ok && none.absent);
    chmodSync(f, 0o600);
    const big = readPrivate(f, 2);
    assert.ok(!big.ok && /too large/.test(big.why));
  });
});
