/**
 * `npm run bench:locomo`: the LoCoMo bench alone (scripts/bench/locomo.ts). Skips with a message
 * when ../shared/data/locomo-dev (or MEM_LOCOMO_DIR) is absent.
 */
import { cpus } from "node:os";
import { locomoDir } from "./bench/locomo-data.js";
import { locomo } from "./bench/locomo.js";

const log = (s: string) => process.stdout.write(`${s}\n`);
log(`mem bench:locomo — node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`);
const dir = locomoDir();
if (!dir) log("\nLoCoMo: skipped (../shared/data/locomo-dev not found; set MEM_LOCOMO_DIR)");
else {
  log(`\nLoCoMo dev (${dir})`);
  await locomo(dir, log);
}
