import { runInstallCommand, scopeHelp } from "../install/cli.js";
import type { Command } from "./main.js";

const usage = `Usage: mem uninstall [--scope user|project|local] [--dry-run] [--json]

Removes mem's hooks (any \`…/bin/mem.cjs hook <event>\` or \`mem hook <event>\` handler)
from a settings file, with the matcher groups and events that leaves empty.
Everything else is kept; the old file is backed up to <file>.bak-<time> first.

Options:
${scopeHelp()}
  --dry-run     print the diff; write nothing
  --json        {"scope", "file", "changed", "backup", "events": [...], "status", "dryRun", "warnings"}
  -h, --help    this help`;

export const uninstallCommand: Command = {
  summary: "remove mem's hooks from Claude Code settings",
  usage,
  run: (argv) => runInstallCommand("uninstall", argv),
};
