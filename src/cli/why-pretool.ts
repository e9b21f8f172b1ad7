import { openApp } from "../app.js";
import { resolveProject } from "../project/identity.js";
import { field, safeJson, visible } from "../render/line.js";
import { oneId } from "../store/one-id.js";
import { pretoolRuns, type PromptRun } from "../store/prompt-log.js";
import { EXIT } from "./args.js";

/** How many of the last pre-tool warnings `mem why --pretool` lists. */
export const PRETOOL_LIST = 10;

function runText(r: PromptRun): string {
  const lines = [`${new Date(r.at).toISOString()}  session ${field(r.session.slice(0, 8))}  ${field(r.prompt, 300)}${r.ms === null ? "" : `  (${r.ms} ms)`}`];
  for (const c of r.candidates) lines.push(`  memory ${field(oneId(c.id))}: ${field(c.why, 300)}`);
  if (r.injected) lines.push(...r.injected.split("\n").map((l) => `    ${visible(l)}`));
  return lines.join("\n");
}

/**
 * `mem why --pretool`: the project's last pre-tool warnings, newest first: the tool call, the
 * memory it brought back and the term that made it (src/inject/pretool-check.ts), the warning as
 * the model saw it. Reads the pre-tool log only; changes nothing.
 */
export async function whyPretool(cwd: string, json: boolean): Promise<number> {
  const app = openApp();
  try {
    const project = resolveProject(cwd);
    const runs = pretoolRuns(app.db, project.id, PRETOOL_LIST);
    if (json) {
      process.stdout.write(`${safeJson({ project: project.id, enabled: app.config.pretool.enabled, warnings: runs })}\n`);
      return EXIT.ok;
    }
    const head = app.config.pretool.enabled ? "" : "The pre-tool check is off (pretool.enabled is false in config.json).\n";
    if (runs.length === 0) {
      process.stdout.write(`${head}No pre-tool warning in ${field(project.id, 300)} yet: no Edit, Write, MultiEdit or Bash call has brought back what a decision ruled out.\n`);
      return EXIT.ok;
    }
    process.stdout.write(`${head}The last ${runs.length} pre-tool warning(s) in ${field(project.id, 300)}, newest first:\n\n${runs.map(runText).join("\n\n")}\n`);
    return EXIT.ok;
  } finally {
    await app.close();
  }
}
