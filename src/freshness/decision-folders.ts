import { realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { within } from "../util/walls.cjs";

/**
 * A repository's decision records are read without a `mem index` of their own: a project whose
 * root holds one of the decision folders (`index.decisionFolders`: docs/adr, docs/decisions, …)
 * that no indexed root of the project covers gets it indexed in the background by the next
 * SessionStart, so a fresh clone is briefed with its team's decisions from its first session.
 * Only a real directory inside the project's root counts: a folder linked out of the repository
 * is left alone (its walls, as `mem index` keeps them).
 */
export interface FolderState {
  /** The folder's real path; undefined when it is missing or no directory. */
  real: string | undefined;
}

/** The folders to index: present, real directories inside the root, not covered by a recorded root. Pure. */
export function foldersToIndex(realRoot: string, folders: readonly { path: string; state: FolderState }[], recorded: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of folders) {
    const real = f.state.real;
    if (real === undefined || real === realRoot || !within(real, realRoot)) continue;
    if (recorded.some((r) => within(real, r))) continue;
    if (!out.includes(real)) out.push(real);
  }
  return out;
}

function stateOf(path: string): FolderState {
  try {
    const real = realpathSync(path);
    return { real: statSync(real).isDirectory() ? real : undefined };
  } catch {
    return { real: undefined };
  }
}

/** The decision folders of the project at `root` that no recorded root (real paths) covers yet. */
export function unindexedDecisionFolders(root: string, folders: readonly string[], recorded: readonly string[]): string[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return [];
  }
  const candidates = folders.filter((f) => f.trim() !== "" && !f.split("/").includes("..")).map((f) => join(realRoot, f));
  return foldersToIndex(realRoot, candidates.map((path) => ({ path, state: stateOf(path) })), recorded);
}
