import { createInterface } from "node:readline";

/** Asks a yes/no question on the terminal (stderr); true only for y or yes. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, resolve);
      rl.once("close", () => resolve(""));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
