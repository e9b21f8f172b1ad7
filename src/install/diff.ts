/** A small unified line diff for `--dry-run` output (settings files are small). */

type Op = { kind: " " | "-" | "+"; line: string };

function lines(text: string): string[] {
  if (text === "") return [];
  const out = text.replace(/\r\n/g, "\n").split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out;
}

/** Longest-common-subsequence edit script of the (already prefix/suffix-trimmed) middle part. */
function lcsOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i * w + j] = a[i] === b[j] ? t[(i + 1) * w + j + 1]! + 1 : Math.max(t[(i + 1) * w + j]!, t[i * w + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i]! });
      i++;
      j++;
    } else if (t[(i + 1) * w + j]! >= t[i * w + j + 1]!) ops.push({ kind: "-", line: a[i++]! });
    else ops.push({ kind: "+", line: b[j++]! });
  }
  while (i < n) ops.push({ kind: "-", line: a[i++]! });
  while (j < m) ops.push({ kind: "+", line: b[j++]! });
  return ops;
}

/** `diff -u`-style text; "" when the texts have the same lines. */
export function unifiedDiff(before: string, after: string, fromLabel: string, toLabel: string, context = 3): string {
  const a = lines(before);
  const b = lines(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  if (pre === a.length && pre === b.length) return "";
  const ops: Op[] = [
    ...a.slice(0, pre).map((line) => ({ kind: " " as const, line })),
    ...lcsOps(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf)),
    ...a.slice(a.length - suf).map((line) => ({ kind: " " as const, line })),
  ];
  // Group changes into hunks with `context` unchanged lines around them.
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  let k = 0;
  let ai = 0; // lines of `a` before ops[k]
  let bi = 0;
  while (k < ops.length) {
    if (ops[k]!.kind === " ") {
      k++;
      ai++;
      bi++;
      continue;
    }
    const start = Math.max(0, k - context);
    let end = k;
    // extend while the next change is within 2*context unchanged lines
    for (let x = k; x < ops.length; x++) {
      if (ops[x]!.kind !== " ") end = x;
      else if (x - end > 2 * context) break;
    }
    const stop = Math.min(ops.length, end + context + 1);
    const back = k - start;
    const aStart = ai - back;
    const bStart = bi - back;
    let aLen = 0;
    let bLen = 0;
    const body: string[] = [];
    for (let x = start; x < stop; x++) {
      const op = ops[x]!;
      body.push(`${op.kind}${op.line}`);
      if (op.kind !== "+") aLen++;
      if (op.kind !== "-") bLen++;
    }
    out.push(`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`, ...body);
    for (let x = k; x < stop; x++) {
      if (ops[x]!.kind !== "+") ai++;
      if (ops[x]!.kind !== "-") bi++;
    }
    k = stop;
  }
  return `${out.join("\n")}\n`;
}
