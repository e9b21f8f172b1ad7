/**
 * `npm run bench:redact`: the redaction rules over real Claude Code transcripts
 * (../shared/data/transcripts, or MEM_TRANSCRIPTS_DIR; skipped with a message when absent). Every string in
 * every transcript line (prompts, replies, tool inputs and outputs; ids, timestamps and thinking signatures
 * left out), each distinct one once, is redacted. Prints the texts scanned and changed, the redactions by
 * rule, time per text (the best of MEM_BENCH_RUNS passes, default 3), and each redaction with its context and
 * the secret masked (first 2 characters and its length), so a human can judge the false positives.
 * `MEM_BENCH_SAMPLES=N` caps the redactions listed (default 300). Not a test.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { redact, redactExplained } from "../src/redact/redact.cjs";

const log = (s: string) => process.stdout.write(`${s}\n`);
const RUNS = Number(process.env.MEM_BENCH_RUNS ?? 3);
const SAMPLES = Number(process.env.MEM_BENCH_SAMPLES ?? 300);
/** Fields that hold no text mem would store: ids, times, versions, the signature of a thinking block. */
const SKIP = new Set(["uuid", "parentUuid", "sessionId", "session_id", "timestamp", "requestId", "id", "tool_use_id", "signature", "version", "gitBranch", "cwd", "leafUuid", "messageId", "agentId"]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".jsonl") ? [p] : [];
  });
}

function collect(value: unknown, key: string, out: Set<string>): void {
  if (typeof value === "string") {
    if (value.length >= 8 && !SKIP.has(key)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) collect(v, key, out);
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) collect(v, k, out);
}

/** The secret masked: its first 2 characters and its length (`Xk…(11)`). */
const mask = (s: string) => `${s.slice(0, 2)}…(${s.length})`;
const oneLine = (s: string) => s.replace(/\s+/g, " ");

function main(): void {
  const dir = process.env.MEM_TRANSCRIPTS_DIR ?? join(process.cwd(), "..", "shared", "data", "transcripts");
  if (!existsSync(dir)) {
    log(`bench:redact: skipped (${dir} not found; set MEM_TRANSCRIPTS_DIR)`);
    return;
  }
  const set = new Set<string>();
  const paths = files(dir);
  for (const f of paths) {
    for (const line of readFileSync(f, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        collect(JSON.parse(line), "", set);
      } catch {
        // a torn line: not a text mem would see whole either
      }
    }
  }
  const texts = [...set];
  const chars = texts.reduce((n, t) => n + t.length, 0);
  log(`redaction over ${paths.length} transcripts in ${dir}`);
  log(`texts scanned: ${texts.length.toLocaleString("en")} (${(chars / 1e6).toFixed(1)} M characters, mean ${Math.round(chars / Math.max(1, texts.length))})`);

  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    for (const t of texts) redact(t);
    best = Math.min(best, performance.now() - t0);
  }

  const byRule = new Map<string, number>();
  const samples: string[] = [];
  let changed = 0;
  for (const t of texts) {
    const r = redactExplained(t);
    if (r.count === 0) continue;
    changed++;
    for (const f of r.found) {
      byRule.set(f.kind, (byRule.get(f.kind) ?? 0) + 1);
      if (samples.length >= SAMPLES) continue;
      const at = t.indexOf(f.secret);
      const before = at < 0 ? "" : oneLine(t.slice(Math.max(0, at - 50), at));
      const after = at < 0 ? "" : oneLine(t.slice(at + f.secret.length, at + f.secret.length + 30));
      samples.push(`  [${f.kind}] …${before}«${mask(f.secret)}»${after}…`);
    }
  }
  log(`texts changed: ${changed} (${((100 * changed) / Math.max(1, texts.length)).toFixed(2)}%)`);
  log(`time: ${(best / Math.max(1, texts.length)).toFixed(4)} ms per text, ${((1000 * best) / Math.max(1, chars)).toFixed(3)} µs per 1k characters (best of ${RUNS}: ${best.toFixed(0)} ms)`);
  log("redactions by rule:");
  for (const [kind, n] of [...byRule].sort((a, b) => b[1] - a[1])) log(`  ${kind.padEnd(28)} ${n}`);
  log(`redactions (secret masked as its first 2 characters and length; ${samples.length} shown):`);
  for (const s of samples) log(s);
}

main();
