/**
 * A bounded reader for a hook's stdin: stops at EOF, `maxBytes` or `deadlineMs`, whichever comes
 * first, and never rejects. Past `maxBytes` the rest is drained and dropped so the writer never
 * blocks on a full pipe.
 *
 * It reads a stream (process.stdin), never fd 0 through fs.read: that would be about 2 ms faster
 * in a hook process, but a read blocked on a pipe that is never closed occupies a libuv pool
 * thread, and process.exit() then hangs forever joining that thread.
 */
export type StdinResult = { text: string; truncated: boolean; timedOut: boolean };

class Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly maxBytes: number) {}

  add(b: Buffer): void {
    if (this.size + b.length > this.maxBytes) {
      this.truncated = true;
      const room = this.maxBytes - this.size;
      if (room > 0) this.chunks.push(b.subarray(0, room));
      this.size = this.maxBytes;
      return;
    }
    this.chunks.push(b);
    this.size += b.length;
  }

  result(timedOut: boolean): StdinResult {
    return { text: Buffer.concat(this.chunks).toString("utf8"), truncated: this.truncated, timedOut };
  }
}

export function readStdin(stream: NodeJS.ReadableStream, maxBytes: number, deadlineMs: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    const got = new Collector(maxBytes);
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeAllListeners("data");
      resolve(got.result(timedOut));
    };
    const timer = setTimeout(() => finish(true), deadlineMs);
    timer.unref();
    stream.on("data", (chunk: Buffer | string) => got.add(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
    stream.once("end", () => finish(false));
    stream.once("error", () => finish(false));
  });
}
