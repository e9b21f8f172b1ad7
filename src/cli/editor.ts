import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join } from "node:path";

/** The editor a person set: $EDITOR, else $VISUAL, else vi. */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.EDITOR?.trim() || env.VISUAL?.trim() || "vi";
}

/**
 * Lets a person edit `text` in their editor: a file readable by them alone (0600, in a 0700
 * directory of its own) holding the text, the editor run on it with the terminal, the result
 * read back; the file and its directory are removed whatever happens. Returns the new text, or
 * why the editor failed.
 */
export function editInEditor(text: string, env: NodeJS.ProcessEnv): { text: string } | { failed: string } {
  const dir = mkdtempSync(join(tmpdir(), "mem-edit-")); // 0700
  const file = join(dir, "memory.md");
  // A hang-up or kill while the editor runs (a closed terminal) no longer ends mem at once, which
  // left the file behind: the editor is waited for, the `finally` below removes the file, and the
  // signal, when Node gets to it, ends the process. The listeners stay (a CLI edits once).
  const gone = (signal: NodeJS.Signals) => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(128 + (constants.signals[signal] ?? 1));
  };
  const signals: NodeJS.Signals[] = ["SIGHUP", "SIGINT", "SIGTERM"];
  for (const sig of signals) process.once(sig, gone);
  try {
    writeFileSync(file, `${text}\n`, { mode: 0o600 });
    const editor = editorCommand(env);
    // As git does: the editor setting may hold arguments ("code --wait"), so a shell runs it.
    const r = process.platform === "win32"
      ? spawnSync(`${editor} "${file}"`, { stdio: "inherit", shell: true, env })
      : spawnSync("/bin/sh", ["-c", `${editor} "$1"`, editor, file], { stdio: "inherit", env });
    if (r.error) return { failed: `could not run the editor ${JSON.stringify(editor)}: ${r.error.message}` };
    if (r.status !== 0) return { failed: `the editor ${JSON.stringify(editor)} exited with ${r.status ?? r.signal}; nothing changed` };
    return { text: readFileSync(file, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
