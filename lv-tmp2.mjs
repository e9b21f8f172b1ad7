import * as lancedb from "@lancedb/lancedb";
import { mkdtempSync } from "node:fs";
const dir = mkdtempSync("/tmp/lv-");
const db = await lancedb.connect(dir);
const N = Number(process.argv[2] ?? 10000), D = 384;
const mk = (n, off) => { const rows = []; for (let i = 0; i < n; i++) { const v = new Float32Array(D); for (let j = 0; j < D; j++) v[j] = Math.random() - 0.5; rows.push({ id: "c" + (i + off), project: "bench", vector: Array.from(v) }); } return rows; };
console.log("start");
const t0 = await db.createTable("t", mk(8192, 0));
for (let off = 8192; off < N; off += 8192) await t0.add(mk(Math.min(8192, N - off), off));
console.log("added");
await t0.optimize({ cleanupOlderThan: new Date() });
const q = Array.from({ length: D }, () => Math.random() - 0.5);
async function time(label, fn) { for (let i = 0; i < 3; i++) await fn(); const s = performance.now(); for (let i = 0; i < 30; i++) await fn(); console.log(label, ((performance.now() - s) / 30).toFixed(2), "ms"); }
await time("flat", () => t0.vectorSearch(q).distanceType("cosine").select(["id", "_distance"]).where("project IN ('bench')").limit(50).toArray());
let s = performance.now(); await t0.createIndex("vector", { config: lancedb.Index.ivfPq({ distanceType: "cosine", numPartitions: Math.round(Math.sqrt(N)), numSubVectors: 48 }) }); console.log("ivfpq build", (performance.now() - s).toFixed(0), "ms");
await time("ivfpq np20 refine5", () => t0.vectorSearch(q).distanceType("cosine").nprobes(20).refineFactor(5).select(["id", "_distance"]).where("project IN ('bench')").limit(50).toArray());
await time("ivfpq np20", () => t0.vectorSearch(q).distanceType("cosine").nprobes(20).select(["id", "_distance"]).where("project IN ('bench')").limit(50).toArray());
