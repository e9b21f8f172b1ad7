#!/usr/bin/env node
// Import-cycle guard: reads every .ts/.cts/.mts file under the given roots, resolves relative
// specifiers (static import/export ... from, `import type`, side-effect imports, dynamic
// import("./x.js"), require("./x.cjs")) to source files, and reports every strongly connected
// component of the graph as a cycle. Type-only imports count: the rule is "no import circles".
// Usage: node scripts/check-cycles.mjs [root-dir]
//   root-dir given: scans all of it (for tests). Default: the repo's src, indexer and scripts.
// Exits 1 and prints each cycle as `a.ts > b.ts > a.ts` (paths relative to the base), else 0.
// Cycles are found per strongly connected component (Tarjan), then listed one per closing edge.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = /\.(ts|cts|mts)$/;
const DECLARATION = /\.d\.(ts|cts|mts)$/;

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (SOURCE.test(name) && !DECLARATION.test(name)) out.push(p);
  }
  return out;
}

/** Blanks comments (keeping newlines and string literals) so commented-out imports do not count. */
function stripComments(text) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === "/" && n === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && n === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) {
        if (text[i] === "\n") out += "\n";
        i++;
      }
      i += 2;
    } else if (c === '"' || c === "'" || c === "`") {
      const start = i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === "\\") i++;
        else if (c !== "`" && text[i] === "\n") break;
        i++;
      }
      i++;
      out += text.slice(start, i);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const PATTERNS = [
  // import x from "./a.js"; import type { X } from "./a.js"; export { y } from "./a.js"; export * from "./a.js"
  /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?[^;'"`]*?\bfrom\s*(["'])([^"'\n]+)\1/g,
  // import "./a.js" (side effect)
  /(?:^|[;\n}])\s*import\s*(["'])([^"'\n]+)\1/g,
  // import("./a.js"), import type X = require("./a.cjs"), require("./a.cjs")
  /\b(?:import|require)\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g,
];

/** Relative specifiers named by a file's imports, exports and requires. */
export function specifiers(text) {
  const code = stripComments(text);
  const found = new Set();
  for (const re of PATTERNS) {
    for (const m of code.matchAll(re)) if (m[2].startsWith(".")) found.add(m[2]);
  }
  return [...found];
}

const MAP = { ".js": [".ts", ".tsx"], ".cjs": [".cts"], ".mjs": [".mts"], ".ts": [".ts"], ".cts": [".cts"], ".mts": [".mts"] };

/** The source file a relative specifier names, or null when it names none under the scan (json, assets). */
function resolveSpecifier(fromFile, spec, known) {
  const base = resolve(dirname(fromFile), spec);
  const candidates = [];
  const ext = Object.keys(MAP).find((e) => base.endsWith(e));
  if (ext) for (const to of MAP[ext]) candidates.push(base.slice(0, -ext.length) + to);
  candidates.push(base, `${base}.ts`, `${base}.cts`, `${base}.mts`, join(base, "index.ts"));
  return candidates.find((c) => known.has(c)) ?? null;
}

/** Tarjan's strongly connected components (iterative), each with more than one file or a self-import. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const edges = graph.get(v);
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const scc = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || edges.includes(v)) out.push(scc);
      }
    }
  }
  return out;
}

/**
 * The cycles of one component, as madge counts them: a depth-first walk inside it from its first
 * file (sorted), one cycle per edge back to a file on the current path. Every edge that closes a
 * loop is reported at least once, so fixing all printed cycles empties the component.
 */
function cyclesIn(graph, scc) {
  const members = new Set(scc);
  const path = [];
  const onPath = new Set();
  const done = new Set();
  const out = [];
  const visit = (start) => {
    const work = [[start, 0]];
    path.push(start);
    onPath.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      const edges = graph.get(v).filter((w) => members.has(w));
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (onPath.has(w)) out.push([...path.slice(path.indexOf(w)), w]);
        else if (!done.has(w)) {
          path.push(w);
          onPath.add(w);
          work.push([w, 0]);
        }
        continue;
      }
      work.pop();
      path.pop();
      onPath.delete(v);
      done.add(v);
    }
  };
  for (const f of [...scc].sort()) if (!done.has(f)) visit(f);
  return out;
}

/** Scans the roots; returns the files, the graph and the cycles (one per component, as file paths). */
export function findCycles(roots) {
  const files = roots.filter((r) => existsSync(r)).flatMap((r) => walk(r, []));
  const known = new Set(files);
  const graph = new Map();
  for (const f of files) {
    const targets = specifiers(readFileSync(f, "utf8"))
      .map((s) => resolveSpecifier(f, s, known))
      .filter((t) => t !== null);
    graph.set(f, [...new Set(targets)]);
  }
  const components = stronglyConnected(graph).map((scc) => scc.sort());
  const cycles = components.flatMap((scc) => cyclesIn(graph, scc));
  return { files, graph, components, cycles };
}

function main() {
  const arg = process.argv[2];
  const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
  const base = arg ? resolve(arg) : repo;
  const roots = arg ? [base] : ["src", "indexer", "scripts"].map((d) => join(repo, d));
  const { files, graph, components, cycles } = findCycles(roots);
  const rel = (p) => relative(base, p).split(sep).join("/");
  if (cycles.length === 0) {
    const edges = [...graph.values()].reduce((n, e) => n + e.length, 0);
    console.log(`check-cycles: no import cycles (${files.length} files, ${edges} relative imports)`);
    return 0;
  }
  for (const c of cycles) console.log(c.map(rel).join(" > "));
  const among = components.reduce((n, c) => n + c.length, 0);
  console.error(`check-cycles: ${cycles.length} import cycle(s) among ${among} files; move the shared type or helper down into its own file`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
