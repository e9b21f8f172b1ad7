/**
 * stdin for the SDK's stdio transport, one JSON-RPC line at a time, with a cap. The SDK closes its
 * transport (so the server is gone for the rest of the session) when a single message is over its
 * buffer limit; here a line over `cap` bytes is dropped instead, and the request it held is
 * answered with a JSON-RPC error naming the size (with its id when it can be read at either end of
 * it, else id null). `check` says what of a whole line the SDK gets: the line as it is to be read,
 * or nothing (a malformed line it answered itself, a blank one).
 */
import { Transform, type TransformCallback } from "node:stream";

/** Bytes kept from each end of a dropped line, to find its id. */
const EDGE = 512;
const VALUE = String.raw`("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})`;
/** The id as the top-level object's first members (before any nested object) or as its last. */
const AT_HEAD = new RegExp(String.raw`^\s*\{[^{]*?"id"\s*:\s*` + VALUE);
const AT_TAIL = new RegExp(String.raw`"id"\s*:\s*` + VALUE + String.raw`\s*\}\s*$`);

/** The JSON-RPC id of a message from the first and last bytes of its text, if it can be told. */
export function idAtEdges(head: string, tail: string): string | number | undefined {
  const m = AT_HEAD.exec(head) ?? AT_TAIL.exec(tail);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return undefined;
  }
}

export class CappedLines extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private head = "";
  private tail = Buffer.alloc(0);
  private dropping = false;

  constructor(
    private readonly cap: number,
    private readonly dropped: (size: number, id: string | number | undefined) => void,
    /** A whole line as the SDK is to read it, or undefined when it must not reach the SDK (answered here). */
    private readonly check: (line: Buffer) => Buffer | undefined = (line) => line,
  ) {
    super();
  }

  private pass(line: Buffer): void {
    const out = this.check(line);
    if (out !== undefined) this.push(out);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(10, at);
      const piece = chunk.subarray(at, nl === -1 ? chunk.length : nl + 1);
      at += piece.length;
      if (this.size === 0) this.head = piece.subarray(0, EDGE).toString("utf8");
      this.size += piece.length;
      if (!this.dropping && this.size > this.cap) {
        this.dropping = true;
        this.parts = [];
      }
      if (this.dropping) this.tail = Buffer.concat([this.tail, piece]).subarray(-EDGE);
      else this.parts.push(piece);
      if (nl === -1) continue;
      if (this.dropping) this.dropped(this.size, idAtEdges(this.head, this.tail.toString("utf8")));
      else this.pass(this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts));
      this.parts = [];
      this.size = 0;
      this.tail = Buffer.alloc(0);
      this.dropping = false;
    }
    cb();
  }

  override _flush(cb: TransformCallback): void {
    if (!this.dropping && this.parts.length > 0) this.pass(Buffer.concat(this.parts));
    cb();
  }
}
