/**
 * `mem uninstall --all`: every step of removing mem (remove-steps.ts), shown first as a dry run,
 * then done once confirmed (a terminal's y, or --yes). --dry-run stops after the plan.
 */
import { dataHome } from "../config/paths.cjs";
import { realSys } from "../maintenance/schedule/sys.js";
import { safeJson } from "../render/line.js";
import { EXIT, parse, UsageError } from "./args.js";
import { confirm } from "./confirm.js";
import { removeSteps, type RemoveContext, type RemoveStep, type StepOutcome } from "./remove-steps.js";

export const REMOVE_ALL_HELP = `  --all         remove everything of mem's, in this order: the hooks and MCP entries of every
                scope (this project's local and project scope, and the user scope), the weekly
                job (mem schedule remove), the daemon (mem serve --stop); with --data, the data
                home too. Shows the whole plan (the diffs) first, then asks; --yes does it
                without asking, --dry-run only shows it
  --data        with --all: also remove the data home (every memory, the index, the snapshots)
  --yes         with --all: do it without asking`;

/** What is left to do by hand once mem's own steps are done. */
export const BY_HAND = ["npm uninstall -g mem-local   # the `mem` command (undoes `npm link` too)", "then delete this checkout, if you cloned one"];

interface Planned {
  step: RemoveStep;
  plan: StepOutcome;
}

const heading = (s: RemoveStep) => `== ${s.name}`;

export async function runRemoveAll(argv: string[], where = { env: process.env, cwd: process.cwd() }): Promise<number> {
  const { values, positionals } = parse(argv, { all: { type: "boolean" }, data: { type: "boolean" }, yes: { type: "boolean" }, "dry-run": { type: "boolean" }, json: { type: "boolean" } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const dryRun = values["dry-run"] === true;
  const json = values.json === true;
  if (json && !dryRun && !values.yes) throw new UsageError("--json cannot ask: add --dry-run or --yes");
  const ctx: RemoveContext = { where, home: dataHome(where.env), data: values.data === true, sys: realSys(where.env) };
  const out = (s: string) => (json ? undefined : process.stdout.write(s));

  const planned: Planned[] = [];
  for (const step of removeSteps()) {
    try {
      planned.push({ step, plan: await step.run(ctx, true) });
    } catch (err) {
      process.stderr.write(`mem uninstall --all: ${step.name}: ${(err as Error).message}\nnothing was changed\n`);
      return EXIT.failure;
    }
  }
  const todo = planned.filter((p) => p.plan.changes);
  out(`${dryRun || todo.length === 0 ? "" : "The plan (nothing is changed yet):\n"}${planned.filter((p) => p.plan.changes || !p.step.quiet).map((p) => `${heading(p.step)}\n${p.plan.text}`).join("")}`);
  const report = (done: { name: string; text: string }[], ok: boolean) => ({ dryRun, dataHome: ctx.home, data: ctx.data, plan: planned.map((p) => ({ name: p.step.name, changes: p.plan.changes, text: p.plan.text })), done, ok, byHand: BY_HAND });
  if (todo.length === 0 || dryRun) {
    if (json) process.stdout.write(`${safeJson(report([], true))}\n`);
    else out(`${todo.length === 0 ? "nothing of mem's to remove here" : "dry run: nothing was changed; run it again without --dry-run to do it"}\nBy hand: ${BY_HAND.join("; ")}\n`);
    return EXIT.ok;
  }
  if (!values.yes) {
    if (process.stdin.isTTY !== true) {
      process.stderr.write("mem uninstall --all: nothing was changed: stdin is not a terminal to confirm on; add --yes to do the above\n");
      return EXIT.failure;
    }
    if (!(await confirm(`Do the ${todo.length} change(s) above? [y/N] `))) {
      process.stderr.write("nothing was changed\n");
      return EXIT.failure;
    }
  }
  const done: { name: string; text: string }[] = [];
  for (const { step } of todo) {
    try {
      const r = await step.run(ctx, false);
      done.push({ name: step.name, text: r.text });
      out(`${heading(step)}\n${r.text}`);
    } catch (err) {
      const left = todo.slice(todo.findIndex((t) => t.step === step)).map((t) => t.step.name);
      process.stderr.write(`mem uninstall --all: ${step.name}: ${(err as Error).message}\nnot done: ${left.join("; ")}\n`);
      if (json) process.stdout.write(`${safeJson(report(done, false))}\n`);
      return EXIT.failure;
    }
  }
  if (json) process.stdout.write(`${safeJson(report(done, true))}\n`);
  else out(`done. By hand: ${BY_HAND.join("; ")}\n`);
  return EXIT.ok;
}
