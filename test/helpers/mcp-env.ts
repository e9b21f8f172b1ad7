/** The environment of a `mem mcp` child in a test: its HOME and data home, no embedding provider, no daemon, no background re-index (MEM_WATCH=0), the project it serves. */
export function serverEnv(home: string, memHome: string, project: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: home, MEM_HOME: memHome, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", MEM_WATCH: "0", CLAUDE_PROJECT_DIR: project };
}
