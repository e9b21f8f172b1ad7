/** A scan worker (src/retrieve/scan-worker.ts) that claims the first block of a scan and never scores it. */
import { parentPort, workerData } from "node:worker_threads";
import { NEXT } from "../../src/retrieve/scan-blocks.js";

const ctrl = new Int32Array((workerData as { control: SharedArrayBuffer }).control);
parentPort?.on("message", () => {
  Atomics.add(ctrl, NEXT, 1);
  const forever = new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(forever, 0, 0); // stuck: only terminate() ends it
});
parentPort?.postMessage("ready");
