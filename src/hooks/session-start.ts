import { openForHook } from "./open-store.js";
import { GLOBAL_PROJECT } from "../config/config.js";
import { indexDecisionFolders, refreshForHook } from "../freshness/refresh.js";
import { buildBriefing } from "../brief/briefing.js";
import { gatherBriefing } from "../brief/gather.js";
import { captureTranscript } from "../capture/record.js";
import { redact } from "../redact/redact.cjs";
import { cleanText } from "../redact/clean.cjs";
import { projectAt } from "../project/scope.js";
import { contextReset, recordInjected } from "../store/injections.js";
import { shownHotLines } from "../brief/shown.js";
import { SessionStore } from "../store/sessions.js";
import { currentUserId } from "../tiers/user.js";
import { str, type Payload } from "../contract/hook.cjs";
import { hookLog } from "./log.cjs";
import { installNudge } from "./install-nudge.js";
import { recordRun } from "../inject/prompt-run.js";
import { recordFolders } from "../config/team-folder.js";
import type { HookIO } from "./io.js";
import type { HookAnswer } from "./answer.js";

export const BRIEFING_TOKENS = 2_500;

/**
 * SessionStart: the briefing. On "compact" (PreCompact does not always fire) the transcript is
 * caught up first, so the tasks and decisions of this very session are restored.
 */
export async function sessionStart(payload: Payload, io: HookIO): Promise<HookAnswer> {
  const app = openForHook(io);
  try {
    const { id: project, root } = projectAt(app.db, str(payload, "cwd") ?? process.cwd(), app.config.project.enclosing);
    const now = (io.now ?? Date.now)();
    const session = cleanText(str(payload, "session_id") ?? "");
    const transcript = str(payload, "transcript_path");
    const source = str(payload, "source") ?? "startup";
    const sessions = new SessionStore(app.db);
    if (source === "compact" || source === "resume") {
      const { warning } = captureTranscript(app.db, project, session, transcript, undefined, now);
      if (warning) hookLog(io.env, `session-start: ${warning}`);
    }
    sessions.touch(session, project, now, transcript === undefined ? undefined : cleanText(transcript));
    // A compaction or /clear takes what earlier prompts were shown out of the context window.
    if (source === "compact" || source === "clear") contextReset(app.db, session);
    const t0 = performance.now();
    const user = currentUserId(io.env, app.config.tiers.user);
    const input = gatherBriefing(app.db, app.config, { project, root, session, source, now, budgetTokens: BRIEFING_TOKENS, ...(user ? { user } : {}) });
    const briefing = buildBriefing({ ...input, redact: (s) => redact(s).text });
    // The hot notes' lines it shows are in the session's context now: its prompts do not show them again.
    const shown = briefing ? shownHotLines(input.hot, briefing, (s) => redact(s).text) : new Map<string, string[]>();
    if (shown.size > 0) recordInjected(app.db, session, [...shown.keys()], now, shown);
    // The prompt log keeps what the session was briefed with (the explorer's session timeline).
    const ids = [...shown.keys()];
    recordRun(app.db, { at: now, session, project, hook: "briefing", ms: performance.now() - t0, mode: null, prompt: source, injected: briefing, ids, fates: ids.map((id, i) => ({ id, rank: i + 1, fate: "injected", why: "a hot note the briefing shows" })) }, (l) => hookLog(io.env, `session-start: ${l}`));
    // Notes edited while no daemon watched: re-indexed in the background (this briefing is not held up).
    // A repository's decision records (docs/adr, …) no root covers yet: indexed in the background, briefed from the next session.
    if (app.config.index.watch) indexDecisionFolders(app.db, { home: app.paths.home, env: io.env, project, root, folders: recordFolders(app.config), now: Date.now(), log: (l) => hookLog(io.env, `session-start: ${l}`) });
    if (app.config.index.watch) refreshForHook(app.db, { home: app.paths.home, env: io.env, projects: [project, ...(app.config.query.includeGlobal ? [GLOBAL_PROJECT] : [])], now: Date.now(), chunks: app.config.index, folders: recordFolders(app.config), log: (l) => hookLog(io.env, `session-start: ${l}`) });
    // Hooks an older mem installed: the user is told (not the model), at most once a day; in Claude Code only (the notice is about its settings).
    const notice = source === "startup" && !io.adapter ? installNudge({ env: io.env, cwd: str(payload, "cwd") ?? process.cwd(), home: app.paths.home, now }) : undefined;
    return { context: briefing, ...(notice ? { notice } : {}) };
  } finally {
    await app.close();
  }
}
