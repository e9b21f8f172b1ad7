/** What every `mem <command>` module exports; main.ts dispatches to these (they never import main.ts). */
export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}
