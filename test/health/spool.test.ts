import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { spoolCheck } from "../../src/health/spool.js";
import { fallbackSpoolPath, SPOOL_FILE } from "../../src/maintenance/flags.js";

const tmp = mkdtempSync(join(tmpdir(), "mem-spool-check-"));
const fallbacks: string[] = [];
after(() => {
  rmSync(tmp, { recursive: true, force: true });
  for (const f of fallbacks) rmSync(f, { force: true });
});

describe("mem doctor's spool check", () => {
  const cases: { name: string; home: number; fallback: number; want: number | undefined }[] = [
    { name: "nothing waits: no line", home: 0, fallback: 0, want: undefined },
    { name: "the data home's spool", home: 3, fallback: 0, want: 3 },
    { name: "the fallback spool under the temp directory (the data home could not be written)", home: 0, fallback: 2, want: 2 },
    { name: "both, counted together", home: 1, fallback: 4, want: 5 },
  ];
  cases.forEach((c, i) => {
    test(c.name, () => {
      const home = join(tmp, `h${i}`);
      mkdirSync(home, { recursive: true });
      const line = `${JSON.stringify({ hook: "post-tool-use", at: 1, payload: { tool_name: "Bash" } })}\n`;
      if (c.home > 0) writeFileSync(join(home, SPOOL_FILE), line.repeat(c.home));
      if (c.fallback > 0) {
        const f = fallbackSpoolPath(home);
        mkdirSync(dirname(f), { recursive: true, mode: 0o700 });
        writeFileSync(f, line.repeat(c.fallback), { mode: 0o600 });
        fallbacks.push(f);
      }
      const check = spoolCheck(home);
      if (c.want === undefined) return assert.equal(check, undefined);
      assert.equal(check?.status, "warn");
      assert.match(check!.detail, new RegExp(`^${c.want} capture\\(s\\) wait in the spool`));
      if (c.fallback > 0) assert.ok(check!.detail.includes(fallbackSpoolPath(home)), "names where they wait");
    });
  });
});
