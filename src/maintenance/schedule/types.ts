/** Where mem's schedule is found by one method. */
export interface MethodStatus {
  method: "systemd" | "cron" | "launchd";
  installed: boolean;
  /** Files holding it, or "crontab". */
  where: string[];
  /** What the scheduler says of it (enabled, active, loaded, next run), when it can be asked. */
  state?: string;
}
