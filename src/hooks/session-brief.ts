/**
 * The SessionStart briefing, made from a request (src/hooks/session-start.ts builds it from the
 * hook's payload): by the warm daemon when one answers (src/daemon/briefing-op.ts), else in the
 * hook's own process. The same function either way, so the briefing is the same bytes whoever
 * makes it. What it records (the hot notes' lines shown, the prompt log's row) is returned as
 * `record`, run once the briefing reached the session: the daemon runs it only when its reply was
 * delivered, so a hook that gave up on a slow daemon and briefed in-process is not recorded twice.
 */
import type { App } from "../app.js";
import { buildBriefing } from "../brief/briefing.js";
import { briefingGit, gatherBriefing } from "../brief/gather.js";
import { shownHotLines } from "../brief/shown.js";
import { captureTranscript } from "../capture/record.js";
import { recordRun } from "../inject/prompt-run.js";
import { projectAt } from "../project/scope.js";
import { cleanText } from "../redact/clean.cjs";
import { redact } from "../redact/redact.cjs";
import { contextReset, recordInjected } from "../store/injections.js";
import { SessionStore } from "../store/sessions.js";
import { currentUserId } from "../tiers/user.js";
import { GLOBAL_PROJECT } from "../config/config.js";
import { recordFolders } from "../config/team-folder.js";
import { indexDecisionFolders, refreshForHook } from "../freshness/refresh.js";
import type { HookIO } from "./io.js";
import { hookLog } from "./log.cjs";
import { openForHook } from "./open-store.js";
import type { BriefRequest } from "./brief-client.cjs";

export type { BriefRequest } from "./brief-client.cjs";

export const BRIEFING_TOKENS = 2_500;

export interface Briefed {
  briefing: string | undefined;
  project: string;
  root: string | undefined;
  /** Records what the briefing showed: run once it reached the session. */
  record: () => void;
}

/**
 * Makes the briefing. On "compact" (PreCompact does not always fire) and "resume" the transcript
 * is caught up first, so the tasks and decisions of this very session are restored.
 */
export async function briefSession(app: App, req: BriefRequest, now: number, log: (line: string) => void): Promise<Briefed> {
  const { id: project, root } = projectAt(app.db, req.cwd, app.config.project.enclosing);
  const session = cleanText(req.session);
  const { source, transcript } = req;
  const sessions = new SessionStore(app.db);
  if (source === "compact" || source === "resume") {
    const { warning } = captureTranscript(app.db, project, session, transcript, undefined, now);
    if (warning) log(warning);
  }
  sessions.touch(session, project, now, transcript === undefined ? undefined : cleanText(transcript));
  // A compaction or /clear takes what earlier prompts were shown out of the context window.
  if (source === "compact" || source === "clear") contextReset(app.db, session);
  const t0 = performance.now();
  const git = await briefingGit(root);
  const user = currentUserId(req.userEnv, app.config.tiers.user);
  const input = gatherBriefing(app.db, app.config, { project, root, session, source, now, budgetTokens: BRIEFING_TOKENS, ...(user ? { user } : {}), ...(git ? { git } : {}) });
  const briefing = buildBriefing({ ...input, redact: (s) => redact(s).text });
  const ms = performance.now() - t0;
  const record = () => {
    // The hot notes' lines it shows are in the session's context now: its prompts do not show them again.
    const shown = briefing ? shownHotLines(input.hot, briefing, (s) => redact(s).text) : new Map<string, string[]>();
    if (shown.size > 0) recordInjected(app.db, session, [...shown.keys()], now, shown);
    // The prompt log keeps what the session was briefed with (the explorer's session timeline).
    const ids = [...shown.keys()];
    recordRun(app.db, { at: now, session, project, hook: "briefing", ms, mode: null, prompt: source, injected: briefing, ids, fates: ids.map((id, i) => ({ id, rank: i + 1, fate: "injected", why: "a hot note the briefing shows" })) }, log);
  };
  return { briefing, project, root, record };
}

/** The briefing made in the hook's own process (no daemon answered): the store opened for it, and the background refreshes the daemon would otherwise see to. */
export async function briefInProcess(req: BriefRequest, io: HookIO): Promise<string | undefined> {
  const app = openForHook(io);
  try {
    const log = (l: string) => hookLog(io.env, `session-start: ${l}`);
    const b = await briefSession(app, req, (io.now ?? Date.now)(), log);
    b.record();
    // Notes edited while no daemon watched: re-indexed in the background (this briefing is not held up).
    // A repository's decision records (docs/adr, …) no root covers yet: indexed in the background, briefed from the next session.
    if (app.config.index.watch) {
      indexDecisionFolders(app.db, { home: app.paths.home, env: io.env, project: b.project, root: b.root, folders: recordFolders(app.config), now: Date.now(), log });
      refreshForHook(app.db, { home: app.paths.home, env: io.env, projects: [b.project, ...(app.config.query.includeGlobal ? [GLOBAL_PROJECT] : [])], now: Date.now(), chunks: app.config.index, folders: recordFolders(app.config), log });
    }
    return b.briefing;
  } finally {
    await app.close();
  }
}
