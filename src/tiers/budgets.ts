import { basename } from "node:path";
import type { Config } from "../config/config.js";

/**
 * The hot files' size budgets: a hot file is in front of the model at every session start, so it
 * should stay small (identity ~1.5 KB, state ~2 KB, references ~1 KB, a profile ~1 KB by default;
 * `tiers.budgets` in config.json). Pure.
 */
export type HotLayout = keyof Config["tiers"]["budgets"];

export interface HotFile {
  path: string;
  /** Its size now (or as last indexed when it cannot be read now). */
  bytes: number;
}

export interface BudgetRow extends HotFile {
  layout: HotLayout;
  budget: number;
  over: boolean;
}

/** "1.5 KB", "2 KB", "900 B" (KB = 1,024 bytes). */
export function kb(bytes: number): string {
  if (bytes < 1_024) return `${bytes} B`;
  return `${Number((bytes / 1_024).toFixed(1))} KB`;
}

/** Which budget a hot file falls under, by its name (a hot file is one of these four). */
export function hotLayoutOf(path: string): HotLayout | undefined {
  const base = basename(path).toLowerCase().replace(/\.mdx$/, ".md");
  const layouts: Record<string, HotLayout> = { "identity.md": "identity", "state.md": "state", "references.md": "references", "profile.md": "profile" };
  return layouts[base];
}

export function budgetRows(files: readonly HotFile[], budgets: Config["tiers"]["budgets"]): BudgetRow[] {
  return files.flatMap((f) => {
    const layout = hotLayoutOf(f.path);
    if (!layout) return [];
    const budget = budgets[layout];
    return [{ ...f, layout, budget, over: f.bytes > budget }];
  });
}

/** The warning for a hot file over its budget, with what to do about it. */
export function overBudget(r: BudgetRow, shown: string): string {
  const move = r.layout === "state" ? "move what is done to sessions/ or archive/" : r.layout === "references" ? "move long material to reference/" : "shorten it, or move detail to reference/";
  return `${shown} is ${kb(r.bytes)}, over its ${kb(r.budget)} budget (tiers.budgets.${r.layout}); it is in front of the model at every session start: ${move}`;
}
