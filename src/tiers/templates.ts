import type { Config } from "../config/config.js";
import { kb } from "./budgets.js";

/**
 * What `mem init` writes: a heading and a hint in an HTML comment. The briefing shows no comment
 * and leaves out a note that has only headings, so an untouched template costs the session
 * nothing. `user` is an id from userSlug (letters, digits, `.`, `_`, `-` only). Pure.
 */
export function templates(user: string, budgets: Config["tiers"]["budgets"]): Record<string, string> {
  return {
    "identity.md": `# Identity

<!-- Hot tier: shown at the start of every session (mem's briefing). Write what rarely changes:
what this project is and who it is for, its stack, its conventions, its hard constraints.
Keep it under ${kb(budgets.identity)} (\`mem status\` shows its size). -->
`,
    "state.md": `# State

<!-- Hot tier: what is true right now, rewritten as it changes. Keep it under ${kb(budgets.state)}:
move what is finished to sessions/ (searched) or archive/ (cold: mem query --cold only). -->

## Now

## Next

## Open questions
`,
    "references.md": `# References

<!-- Hot tier: where things are, one line each: docs, key files, dashboards, runbooks.
Long material belongs in reference/ (searched on demand, not briefed). Keep it under ${kb(budgets.references)}. -->
`,
    [`users/${user}/profile.md`]: `# Profile: ${user}

<!-- How ${user} likes to work: tone, tools, habits, what to avoid. Briefed only in the sessions
of the user whose id is ${user} (see mem init --help), never to another user.
Keep it under ${kb(budgets.profile)}. -->
`,
  };
}

/** The directories of the layout, parents first. */
export function layoutDirs(user: string): string[] {
  return ["reference", "sessions", "archive", "users", `users/${user}`];
}
