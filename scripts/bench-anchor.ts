/**
 * `npm run bench:anchor`: what reality anchoring adds to a capture. In-process, on a real SQLite
 * store and a real git repository: the median of N captures of an Edit payload (anchored: the
 * file is hashed, its repository found, HEAD read, the anchor written; convergence looked up),
 * beside N captures of a Read payload of the same file (not anchored), and the anchoring step
 * alone on the same events. Each Edit rewrites the file first, so no blob comes from a cache.
 * Not a test.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { anchorCaptured } from "../src/anchor/anchor.js";
import { AnchorCache } from "../src/anchor/cache.js";
import { captureToolPayload } from "../src/capture/record.js";
import { resolveProject } from "../src/project/identity.js";
import { clean, cleanText } from "../src/redact/clean.cjs";
import { openDb } from "../src/store/db.js";

const N = Number(process.env.MEM_BENCH_CAPTURES ?? 50);
const SIZE = Number(process.env.MEM_BENCH_FILE_BYTES ?? 20_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const tmp = mkdtempSync(join(tmpdir(), "mem-bench-anchor-"));
try {
  const repo = join(tmp, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: repo });
  const file = join(repo, "src", "auth.c");
  const body = (i: number) => `/* version ${i} */\n${"int x = 1;\n".repeat(Math.ceil(SIZE / 11))}`.slice(0, SIZE);
  writeFileSync(file, body(0));
  const db = openDb(join(tmp, "mem.sqlite"));
  const project = resolveProject(repo).id;
  const payload = (tool: string, i: number) => ({ session_id: "bench", cwd: repo, hook_event_name: "PostToolUse", tool_name: tool, tool_use_id: `toolu_${tool}_${i}`, tool_input: { file_path: file, ...(tool === "Edit" ? { old_string: "x", new_string: "y" } : {}) }, tool_response: { ok: true } });
  const time = (f: () => void) => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  // warm-up (statements prepared, modules loaded)
  for (let i = 0; i < 5; i++) captureToolPayload(db, project, payload("Edit", -1 - i), Date.now());
  const edit: number[] = [];
  const read: number[] = [];
  const anchorOnly: number[] = [];
  for (let i = 0; i < N; i++) {
    writeFileSync(file, body(i + 1));
    edit.push(time(() => captureToolPayload(db, project, payload("Edit", i), Date.now())));
    read.push(time(() => captureToolPayload(db, project, payload("Read", i), Date.now())));
    writeFileSync(file, body(i + 1000));
    const events = clean([{ id: `solo_${i}`, type: "file_modified" as const, time: "", session: "bench", files: [file], text: `Edit ${file}`, metadata: {} }]);
    anchorOnly.push(time(() => anchorCaptured(db, { project, session: cleanText("bench"), now: Date.now(), events, taskChanges: clean([]) }, new AnchorCache())));
  }
  db.close();
  const f = (x: number) => `${x.toFixed(3)} ms`;
  process.stdout.write(
    `${[
      `captures of a ${SIZE}-byte file, median of ${N}, in-process:`,
      `  Edit (anchored + convergence lookup): ${f(median(edit))}`,
      `  Read (not anchored):                  ${f(median(read))}`,
      `  anchoring step alone (hash, .git, HEAD, insert): ${f(median(anchorOnly))}`,
      `  difference Edit - Read:               ${f(median(edit) - median(read))}`,
    ].join("\n")}\n`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
