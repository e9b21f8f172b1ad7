/** Resolves to the promise's value, or to undefined once `ms` have passed (the timer never holds the process). */
export function withDeadline<T>(p: Promise<T>, ms: number, onTimeout?: () => void): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      onTimeout?.();
      resolve(undefined);
    }, Math.max(0, ms));
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
