import { openApp, type App } from "../app.js";
import type { HookIO } from "./io.js";

/**
 * The store as a hook opens it: a broken config runs on the defaults, a locked store is waited
 * for only as long as the hook's deadline leaves (then the capture is spooled), and a long
 * migration is left to the daemon or the next command (MigrationDeferredError: spooled too).
 */
export const openForHook = (io: HookIO): App => openApp(io.env, { tolerateConfigErrors: true, busyTimeoutMs: io.storeBusyMs, deferHeavyMigrations: true });
