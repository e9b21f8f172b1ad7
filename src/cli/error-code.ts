/**
 * The `code` of a failure as `--json` (and `query --batch`) print it, `{"error": {"code",
 * "message"}}`: by error class, a MemoryError's own code, else "failure".
 */
const BY_CLASS: Record<string, string> = { ConfigError: "config", StoreDamagedError: "store_damaged", SettingsError: "settings", ScheduleError: "schedule", SearchError: "search", EmbedError: "embedding" };

export function errorCode(e: Error): string {
  const own = (e as { code?: unknown }).code;
  return BY_CLASS[e.name] ?? (e.name === "MemoryError" && typeof own === "string" ? own : "failure");
}
