import { EXIT } from "./args.js";

export async function runRepair(json: boolean): Promise<number> {
  process.stdout.write(json ? "{}\n" : "not yet\n");
  return EXIT.failure;
}
