import { read } from "node:fs";

/**
 * Bounded readers for a hook's stdin. Both stop at EOF, `maxBytes` or `deadlineMs`, whichever
 * comes first, and never reject. Past `maxBytes` the rest is drained and dropped so the writer
 * never blocks on a full pipe.
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

/** Reads a stream (tests pass a Readable; the CLI's `mem hook` passes process.stdin). */
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

/**
 * Reads file descriptor 0 directly: about 4 ms cheaper at start-up than `process.stdin`, which
 * builds a stream stack. A read that never returns (stdin left open) is abandoned at the
 * deadline; the caller must then end the process with process.exit(), since the pending read
 * keeps the event loop alive. A non-blocking descriptor (EAGAIN) falls back to the stream reader.
 */
export function readFd0(maxBytes: number, deadlineMs: number): Promise<StdinResult> {
  return new Promise((resolve) => {
    const got = new Collector(maxBytes);
    const buf = Buffer.allocUnsafe(64 * 1024);
    let done = false;
    const finish = (r: StdinResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => finish(got.result(true)), deadlineMs);
    const next = () =>
      read(0, buf, 0, buf.length, null, (err, n) => {
        if (done) return;
        if (err && (err.code === "EAGAIN" || err.code === "EWOULDBLOCK")) {
          clearTimeout(timer);
          done = true;
          void readStdin(process.stdin, maxBytes, deadlineMs).then(resolve);
          return;
        }
        if (err || n === 0) return finish(got.result(false)); // EOF, or no usable stdin (closed, a directory…)
        got.add(Buffer.from(buf.subarray(0, n)));
        next();
      });
    next();
  });
}
