#!/usr/bin/env node
// Layer guard: no upward imports. The folders of src/ (and indexer/) stand in layers, lowest first;
// a file may import from its own layer and the layers below, never from a layer above. The order
// is the data flow read as dependencies: rules and types at the bottom, the store, then what reads
// and fills it (retrieve, index, capture), what renders for the model (inject, brief), the one
// service, and the entry points on top (hooks, daemon, MCP, web, CLI, installer, jobs).
// docs/architecture.md explains each layer. A folder not listed fails the check until it is placed.
// Usage: node scripts/check-layers.mjs [root-dir]   (root-dir: a tree holding src/ and indexer/, for tests)
// Exits 1 and prints each upward import as `from.ts -> to.ts (layer a above… layer b)`, else 0.
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { findCycles } from "./check-cycles.mjs";

/** Lowest first. "app" is src/app.ts (the composition of config, store and embedders); "indexer" is the top-level indexer/. */
export const LAYERS = [
  ["util"],
  ["contract", "memory", "tasks", "render"],
  ["config"],
  ["redact"],
  ["store", "embed"],
  ["project", "tiers", "app"],
  ["retrieve"],
  ["indexer", "team"],
  ["capture", "anchor", "cold"],
  ["inject"],
  ["brief"],
  ["service"],
  ["hooks", "daemon", "mcp", "web", "health", "install", "cli", "maintenance", "freshness"],
];

/** The unit a file belongs to: `src/<folder>/…` → folder, `src/app.ts` → app, `indexer/…` → indexer; null outside. */
export function unitOf(rel) {
  const parts = rel.split("/");
  if (parts[0] === "indexer") return "indexer";
  if (parts[0] !== "src") return null;
  if (parts.length === 2) return parts[1].replace(/\.(c|m)?ts$/, "");
  return parts[1];
}

/** Upward imports and unplaced units among the graph's edges (paths relative to base). Pure. */
export function checkLayers(edges, layers = LAYERS) {
  const rank = new Map(layers.flatMap((units, i) => units.map((u) => [u, i])));
  const upward = [];
  const unplaced = new Set();
  for (const [from, to] of edges) {
    const a = unitOf(from);
    const b = unitOf(to);
    if (a === null || b === null) continue;
    for (const u of [a, b]) if (!rank.has(u)) unplaced.add(u);
    if (rank.has(a) && rank.has(b) && rank.get(b) > rank.get(a)) upward.push({ from, to, fromUnit: a, toUnit: b });
  }
  return { upward, unplaced: [...unplaced].sort() };
}

function main() {
  const arg = process.argv[2];
  const base = arg ? resolve(arg) : join(dirname(fileURLToPath(import.meta.url)), "..");
  const { files, graph } = findCycles(["src", "indexer"].map((d) => join(base, d)));
  const rel = (p) => relative(base, p).split(sep).join("/");
  const edges = [...graph].flatMap(([f, ts]) => ts.map((t) => [rel(f), rel(t)]));
  const { upward, unplaced } = checkLayers(edges);
  for (const u of unplaced) console.log(`${u}: not placed in a layer (add it to LAYERS in scripts/check-layers.mjs)`);
  for (const u of upward) console.log(`${u.from} -> ${u.to} (${u.fromUnit} imports ${u.toUnit}, a layer above it)`);
  if (upward.length === 0 && unplaced.length === 0) {
    console.log(`check-layers: no upward imports (${files.length} files, ${LAYERS.length} layers)`);
    return 0;
  }
  console.error(`check-layers: ${upward.length} upward import(s), ${unplaced.length} unplaced folder(s); move the shared type or helper down (docs/architecture.md)`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
