/**
 * The one error a memory operation throws, by code, whatever the adapter (CLI exit codes, MCP
 * errors, HTTP statuses map from the code). No dependencies: a project lookup below the service
 * throws it too.
 */
export type MemoryErrorCode = "not_found" | "bad_argument" | "too_large" | "markdown" | "forgotten" | "unknown_project" | "read_only";

export class MemoryError extends Error {
  override name = "MemoryError";
  constructor(
    readonly code: MemoryErrorCode,
    message: string,
  ) {
    super(message);
  }
}
