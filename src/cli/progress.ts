/** A one-line progress bar on a TTY stderr; silent elsewhere (pipes, CI, --json). */
export interface Progress {
  update(label: string, done: number, total: number): void;
  done(): void;
}

export function progressBar(stream: NodeJS.WriteStream = process.stderr, enabled = stream.isTTY === true): Progress {
  if (!enabled) return { update() {}, done() {} };
  let last = 0;
  let shown = false;
  return {
    update(label, done, total) {
      const now = Date.now();
      if (done < total && now - last < 80) return;
      last = now;
      const width = 28;
      const frac = total > 0 ? Math.min(1, done / total) : 1;
      const fill = Math.round(frac * width);
      stream.write(`\r${label.padEnd(6)} [${"#".repeat(fill)}${"-".repeat(width - fill)}] ${String(Math.round(frac * 100)).padStart(3)}% ${done}/${total}\x1b[K`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}
