/**
 * The checks of `mem doctor` that are cheap enough for a page shown often (the explorer's health
 * page): the data home and config, redaction, the store's identity and snapshots, the embedding
 * chain as the search picked it, mem's hooks in the settings files, the daemon's socket place.
 * Left to `mem doctor` (seconds on a large store): SQLite's quick_check and the FTS5 check,
 * the drift between the stores, every LanceDB row read, the MCP server started.
 */
import type { App } from "../app.js";
import type { Selected, Unhealthy } from "../embed/chain.js";
import { spoolChecks } from "./spool.js";
import type { Check } from "./check.js";
import { configWarningChecks, homeCheck } from "./home.js";
import { hookChecks } from "./hooks.js";
import { providerChecks, type ProviderHealth } from "./providers.js";
import { socketDirCheck } from "./socket.js";
import { redactionCheck, storeIdentityChecks } from "./store.js";

/** What `mem doctor` checks that these leave out, in words. */
export const LEFT_TO_DOCTOR = "SQLite's quick_check and the FTS5 index check, the drift between the stores, every LanceDB row read and the MCP server started";

/** The providers as the search picked them: those that failed before the one selected, and it. */
export function pickedHealth(picked: { selected?: Selected; unhealthy: Unhealthy[] }): ProviderHealth[] {
  const failed = picked.unhealthy.map((u): ProviderHealth => ({ provider: { name: u.provider, model: u.model }, health: { ok: false, reason: u.reason, ...(u.fix ? { fix: u.fix } : {}) } }));
  return picked.selected ? [...failed, { provider: picked.selected.provider, health: { ok: true, dims: picked.selected.dims } }] : failed;
}

export function quickChecks(app: App, where: { env: NodeJS.ProcessEnv; cwd: string }, picked: { selected?: Selected; unhealthy: Unhealthy[] }, events: number): Check[] {
  const checks: Check[] = [homeCheck(app, where.env)];
  if (app.configError) checks.push({ name: "config", status: "error", detail: `${app.configError} (the defaults are used)`, fix: `fix or remove ${app.paths.config}` });
  checks.push(...configWarningChecks(app), redactionCheck(app.db), ...storeIdentityChecks(app.paths.sqlite, events));
  checks.push(...providerChecks(pickedHealth(picked), app.config.embedding.order.length, where.env, app.config));
  checks.push(...hookChecks(where));
  const socket = socketDirCheck(where.env);
  if (socket) checks.push(socket);
  checks.push(...spoolChecks(app.paths.home));
  return checks;
}
