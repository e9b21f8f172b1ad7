/** One line of `mem doctor`'s report; doctor-cmd.ts collects them from doctor-hooks.ts and doctor-mcp.ts. */
export interface Check {
  name: string;
  status: "ok" | "warn" | "error";
  detail: string;
  fix?: string;
}
