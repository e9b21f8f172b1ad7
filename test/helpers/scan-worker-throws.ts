/** A scan worker (src/retrieve/scan-worker.ts) that claims the first block of a scan, then throws. */
import { parentPort, workerData } from "node:worker_threads";
import { NEXT } from "../../src/retrieve/scan-blocks.js";

const ctrl = new Int32Array((workerData as { control: SharedArrayBuffer }).control);
parentPort?.on("message", () => {
  Atomics.add(ctrl, NEXT, 1);
  throw new Error("simulated crash mid-scan");
});
parentPort?.postMessage("ready");
