/**
 * After a write outside the daemon (the CLI, `mem ui`): a running daemon is told the project has
 * chunks to embed, so the vectors catch up in its background indexing (not waited for). Nothing
 * when no daemon answers, or when MEM_NO_DAEMON=1.
 */
import { dataHome } from "../config/paths.cjs";
import { ask } from "./client.cjs";

export async function nudgeDaemon(project: string, home: string = dataHome()): Promise<void> {
  if (process.env.MEM_NO_DAEMON === "1") return;
  await ask(home, { op: "sync", project, timeoutMs: 0 }, 300);
}
