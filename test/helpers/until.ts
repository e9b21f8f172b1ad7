/** Polls `cond` every `stepMs` until it holds; throws naming `what` once `ms` have passed. */
export async function until(
  cond: () => boolean | Promise<boolean>,
  ms = 60_000, // only a hang guard: a loaded machine can take many seconds for what takes one here
  what = "condition",
  stepMs = 50,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  if (await cond()) return;
  throw new Error(`${what} not met within ${ms} ms`);
}
