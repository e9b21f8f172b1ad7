/**
 * The Claude Code session a process runs in, from its environment. Claude Code sets
 * `CLAUDE_CODE_SESSION_ID` (the `session_id` its hooks see) and `CLAUDECODE=1` in what it spawns:
 * the Bash tool's commands and hooks (updated on `/clear`), and stdio MCP servers (the id they were
 * started with; src/mcp/session.ts follows it across `/clear`). code.claude.com/docs/en/env-vars.
 * Only with `CLAUDECODE=1` (a value left in a user's shell is not a session), and only an id that
 * looks like one. Pure.
 */

/** A session id as Claude Code makes them (a UUID): anything else from the environment is ignored. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function sessionFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const id = env.CLAUDE_CODE_SESSION_ID?.trim();
  return env.CLAUDECODE === "1" && id && ID.test(id) ? id : undefined;
}
