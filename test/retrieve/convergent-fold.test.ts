/**
 * An explicit memory and the edit it converged with are shown as one search result: the explicit
 * memory, standing for the edit (src/retrieve/convergent.ts). An edit found alone is still shown;
 * an edit that converged with nothing is never folded.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openApp } from "../../src/app.js";
import { captureToolPayload, captureTranscript } from "../../src/capture/record.js";
import { chunkCapturedEvents } from "../../indexer/captured.js";
import { resolveProject } from "../../src/project/identity.js";
import { cleanText } from "../../src/redact/clean.cjs";
import { searchMemories } from "../../src/service/search.js";
import { ChunkStore } from "../../src/store/chunks.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-fold-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("the explicit memory stands for the edit it converged with; another edit stays apart", async () => {
  const proj = join(tmp, "p");
  mkdirSync(join(proj, ".git"), { recursive: true });
  const app = openApp({ MEM_HOME: join(tmp, "home"), HOME: tmp, MEM_EMBED_ORDER: "none" });
  after(() => app.close());
  const project = resolveProject(proj);
  const p = cleanText(project.id);
  const t = Date.now();
  const edit = (session: string, id: string, file: string, at: number) =>
    captureToolPayload(app.db, p, { session_id: session, hook_event_name: "PostToolUse", tool_name: "Edit", tool_use_id: id, tool_input: { file_path: join(proj, file), old_string: "a", new_string: "b" }, tool_response: { ok: true } }, at);
  edit("A", "toolu_A", "src/quokka.c", t);
  captureTranscript(app.db, p, "A", undefined, "[MEMORY: learned] The quokka parser must skip BOMs (fixed in src/quokka.c)", t + 60_000);
  edit("B", "toolu_B", "docs/quokka.md", t + 120_000);
  chunkCapturedEvents(app.db, new ChunkStore(app.db), p, t + 180_000);
  assert.equal((app.db.prepare("SELECT count(*) FROM links").pluck().get() as number), 1, "A's tag and A's edit converged");

  const found = await searchMemories(app, { text: "quokka", project, mode: "bm25", k: 10 });
  const ids = found.results.map((r) => r.memoryId);
  assert.ok(ids.some((id) => id.startsWith("tag:")), JSON.stringify(ids));
  assert.ok(!ids.includes("toolu_A"), "A's edit is shown as part of the explicit memory");
  assert.ok(ids.includes("toolu_B"), "B's edit converged with nothing: its own result");
  const tag = found.results.find((r) => r.memoryId.startsWith("tag:"))!;
  assert.equal(tag.duplicates.length >= 1, true, "the explicit memory names what it stands for");

  const alone = await searchMemories(app, { text: "quokka", project, mode: "bm25", k: 10, kinds: ["file_modified"] });
  assert.ok(alone.results.map((r) => r.memoryId).includes("toolu_A"), "found alone, the edit is shown");
});
