/**
 * The daemon's scan worker (scan-pool.ts): a thread that scores blocks of a shared matrix in
 * place. It says "ready" once it holds the matrix; each message then starts a scan: it claims
 * blocks until none is left, then waits for the next.
 */
import { parentPort, workerData } from "node:worker_threads";
import { attachMatrix, type SharedMatrix } from "./dot-scores.js";
import { claimBlocks } from "./scan-blocks.js";

export interface ScanWorkerData {
  matrix: SharedMatrix;
  control: SharedArrayBuffer;
  per: number;
}

const data = workerData as ScanWorkerData;
const matrix = attachMatrix(data.matrix);
const ctrl = new Int32Array(data.control);
parentPort?.on("message", () => claimBlocks(matrix, ctrl, data.per));
parentPort?.postMessage("ready");
