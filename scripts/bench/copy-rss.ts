/**
 * For bench:scale, run as a child process: a process that holds nothing but a code copy of one
 * LanceDB table (as the daemon holds it), to measure the copy's own memory: RSS after the load,
 * the load's peak (maxRSS), and the copy's bytes. Prints one line of JSON.
 * With a fourth argument, a folder, the int8 rows are kept in a file there (as the daemon keeps
 * them); without, in memory.
 * Usage: node --expose-gc copy-rss.js <lance dir> <table> <dims> [<rows folder>]
 */
import { CodeIndex } from "../../src/retrieve/code-index.js";
import { VectorStore } from "../../src/store/vectors.js";

const [dir, table, dims, rowsDir] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const store = await VectorStore.open(dir!);
await store.count(table!); // LanceDB opened and its table read once: its own memory counted in `before`
gc();
const before = process.memoryUsage().rss;
const t0 = performance.now();
const copy = await CodeIndex.load(store, table!, Number(dims), "v", { rowsDir });
const loadMs = performance.now() - t0;
gc();
const mem = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({ rows: copy.size, before, rss: mem.rss, maxRss: process.resourceUsage().maxRSS * 1024, heapUsed: mem.heapUsed, external: mem.external, arrayBuffers: mem.arrayBuffers, codes: copy.bytes, ids: copy.idBytes, file: copy.fileBytes, loadMs })}\n`,
);
await copy.close();
store.close();
