/**
 * Forgets travel: `mem forget` of a memory that was shared (a file in the team folder carries its
 * mem-id), or of a team record itself, removes the file from the working tree and adds the
 * memory's tombstone to the folder's FORGOTTEN.md (src/team/tombstones.ts), both for the user to
 * review and commit. The record leaves the index at once; a local memory the record stated is
 * forgotten with it (one memory, both sources). Nothing is committed.
 */
import { basename, dirname, relative } from "node:path";
import { inDecisionFolder, recordFileName } from "../../indexer/decision-record.js";
import type { Config } from "../config/config.js";
import { ownGitAt } from "../project/git-marker.js";
import { cleanText } from "../redact/clean.cjs";
import { idOf } from "./convert.js";
import { forgetMemory } from "./forget.js";
import type { MemoryService } from "./memory.js";
import type { Memory } from "./types.js";
import { ChunkStore } from "../store/chunks.js";
import type { Db } from "../store/db.js";
import { memoryById } from "../store/memories.js";
import { within } from "../util/walls.cjs";
import { recordFolders, teamFolder } from "../config/team-folder.js";
import { memIdIn, titleOf } from "../team/madr-file.js";
import { currentContent, removeFile, sharedFiles, teamPlace, type TeamPlace } from "../team/place.js";
import { addTombstone, TOMBSTONES } from "../team/tombstones.js";

export interface TeamForget {
  /** The file removed, relative to the repository. */
  removed?: string;
  /** FORGOTTEN.md, relative to the repository, when a line was added (or was there). */
  tombstone?: string;
  warnings: string[];
}

const rootOf = (project: string): string | undefined => (project.startsWith("/") || /^[A-Za-z]:[\\/]/.test(project) ? project : undefined);

/**
 * The record folder (relative to the repository) holding a team record's file (any passage of it),
 * or undefined when the memory is no team record: a markdown file directly in one of the record
 * folders of its repository, not the folder's index, template or tombstones.
 */
function recordFolderOf(m: Memory, root: string, config: Pick<Config, "index" | "team">): string | undefined {
  const folders = recordFolders(config);
  // Only a record's file (a .jsonl log kept in the folder is none: its events are refused like a note's).
  if (m.source !== "markdown" || m.record === undefined || m.path === undefined || !within(m.path, root) || !inDecisionFolder(m.path, folders) || !recordFileName(basename(m.path))) return undefined;
  const dir = relative(root, dirname(m.path)).split(/[\\/]+/).join("/");
  return folders.find((f) => f.toLowerCase() === dir.toLowerCase());
}

/** Removes the file, adds the tombstone (to the team folder), drops the record from the index; each step that fails is a warning. */
function unshare(db: Db, project: string, recordPlace: TeamPlace, name: string, memId: string | undefined, title: string, config: Pick<Config, "index" | "team">, now: number): TeamForget {
  const out: TeamForget = { warnings: [] };
  if (memId !== undefined) {
    try {
      const team = teamPlace(recordPlace.root, config);
      addTombstone(team.dir, memId, new Date(now).toISOString().slice(0, 10), title);
      out.tombstone = `${team.folder}/${TOMBSTONES}`;
    } catch (err) {
      out.warnings.push(`no tombstone added: ${(err as Error).message}`);
    }
  }
  if (removeFile(recordPlace.dir, name)) out.removed = `${recordPlace.folder}/${name}`;
  else out.warnings.push(`${recordPlace.folder}/${name} was not removed (not a regular file): remove it yourself`);
  const chunks = new ChunkStore(db);
  const src = chunks.getSource(project, `${recordPlace.dir}/${name}`);
  if (src) chunks.deleteSource(src.id);
  return out;
}

/**
 * Forgets one memory by id as `mem forget ID` does, and unshares it: a shared memory's file and a
 * team record's file go, their tombstone is added. A markdown note that is no team record is
 * refused as before (edit the file).
 */
export function forgetWithTeam(db: Db, svc: MemoryService, config: Pick<Config, "index" | "team">, id: string, now: number): { forgotten: { id: string }; team?: TeamForget } {
  const m = svc.get(id, { liveFirst: false, writing: true });
  const root = rootOf(m.project);
  const repo = root !== undefined && ownGitAt(root) ? root : undefined;
  if (m.source === "markdown") {
    const folder = repo === undefined ? undefined : recordFolderOf(m, repo, config);
    if (repo === undefined || folder === undefined) return { forgotten: forgetMemory(db, svc, id, now) }; // refused: a note is edited in its file
    const place = teamPlace(repo, config, folder); // the folder checked: this user's, inside the repository
    const name = basename(m.path!);
    const memId = memIdIn(currentContent(place.dir, name) ?? "");
    const team = unshare(db, m.project, place, name, memId, m.record?.title ?? titleOf(m.text), config, now);
    // The local memory the record stated is the same memory: forgotten too.
    const local = memId === undefined ? undefined : memoryById(db, memId);
    if (local && !local.deleted_at && local.project === m.project) forgetMemory(db, svc, local.id, now);
    return { forgotten: { id: idOf(m) }, team };
  }
  const forgotten = forgetMemory(db, svc, id, now);
  if (repo === undefined) return { forgotten };
  const memId = cleanText(m.id);
  // Where it may have been shared: the team folder, then the other record folders (a --folder share).
  const folders = [teamFolder(repo, config), ...recordFolders(config)].filter((f, i, all) => all.indexOf(f) === i);
  for (const f of folders) {
    let place: TeamPlace;
    try {
      place = teamPlace(repo, config, f);
    } catch {
      continue; // a folder mem may not touch: nothing was shared there
    }
    const name = sharedFiles(place.dir).byMemId.get(memId);
    if (name !== undefined) return { forgotten, team: unshare(db, m.project, place, name, memId, titleOf(m.text), config, now) };
  }
  return { forgotten };
}
