/**
 * For bench:scale, run as a child process: a process that holds nothing but a code copy of one
 * LanceDB table (as the daemon holds it), to measure the copy's own memory: RSS after the load,
 * the load's peak (maxRSS), and the copy's bytes. Prints one line of JSON.
 * Usage: node --expose-gc copy-rss.js <lance dir> <table> <dims>
 */
import { CodeIndex } from "../../src/retrieve/code-index.js";
import { VectorStore } from "../../src/store/vectors.js";

const [dir, table, dims] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const store = await VectorStore.open(dir!);
await store.count(table!); // LanceDB opened and its table read once: its own memory counted in `before`
gc();
const before = process.memoryUsage().rss;
const t0 = performance.now();
const copy = await CodeIndex.load(store, table!, Number(dims), "v");
const loadMs = performance.now() - t0;
gc();
const mem = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({ rows: copy.size, before, rss: mem.rss, maxRss: process.resourceUsage().maxRSS * 1024, heapUsed: mem.heapUsed, external: mem.external, arrayBuffers: mem.arrayBuffers, codes: copy.bytes, ids: copy.idBytes, loadMs })}\n`,
);
store.close();
