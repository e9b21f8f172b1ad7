/** The environment of a `mem mcp` child in a test: its HOME and data home, no embedding provider, no daemon, the project it serves. */
export function serverEnv(home: string, memHome: string, project: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: home, MEM_HOME: memHome, MEM_EMBED_ORDER: "none", MEM_NO_DAEMON: "1", CLAUDE_PROJECT_DIR: project };
}
