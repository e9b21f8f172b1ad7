import { spawnSync } from "node:child_process";
import { homedir } from "node:os";

/**
 * The machine the schedule is written on: its environment (PATH finds systemctl, crontab and
 * launchctl; XDG_CONFIG_HOME and HOME place the files), platform and user, and a way to run a
 * program. Tests give a temporary HOME and fake programs on PATH; nothing here is faked.
 */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The program is not installed. */
  missing: boolean;
}

export interface Sys {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  uid: number;
  run(cmd: string, args: readonly string[], input?: string): Ran;
}

export function realSys(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Sys {
  return {
    env,
    platform,
    home: env.HOME?.startsWith("/") ? env.HOME : homedir(),
    uid: process.getuid?.() ?? 0,
    run(cmd, args, input) {
      const r = spawnSync(cmd, [...args], { env, input: input ?? "", encoding: "utf8", timeout: 15_000, stdio: ["pipe", "pipe", "pipe"] });
      const missing = (r.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
      return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? (r.error ? r.error.message : ""), missing };
    },
  };
}

/** `systemctl --user` answers: a user manager is running for this session. */
export function systemdWorks(sys: Sys): boolean {
  return sys.run("systemctl", ["--user", "show-environment"]).status === 0;
}

/** A `crontab` program is installed. */
export function cronWorks(sys: Sys): boolean {
  return !sys.run("crontab", ["-l"]).missing;
}

/** A command as it was (or would be) run, for the report. */
export const cmdline = (cmd: string, args: readonly string[]) => [cmd, ...args].join(" ");
