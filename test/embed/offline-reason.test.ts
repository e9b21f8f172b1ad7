/**
 * Offline, transformers.js's download fails inside fetch ("fetch failed", the cause ENOTFOUND):
 * the provider says what that means (the model is not on this machine and the hub cannot be
 * reached), not the socket error. The errors are real ones: a fetch to a name that cannot resolve.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { offlineReason } from "../../src/embed/transformers.js";

const fetchError = async (url: string): Promise<unknown> => {
  try {
    await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    return err;
  }
  throw new Error(`${url} answered`);
};
const withCause = (code: string) => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(`getaddrinfo ${code}`), { code }) });

describe("offlineReason", () => {
  test("a real fetch to a name that cannot resolve: the model is missing and the hub unreachable, no ENOTFOUND", async () => {
    const err = await fetchError("http://mem-offline-check.invalid/model.onnx");
    const r = offlineReason(err, "Xenova/all-MiniLM-L6-v2", "/home/u/.mem/models");
    assert.equal(r, "model Xenova/all-MiniLM-L6-v2 is not in /home/u/.mem/models and huggingface.co cannot be reached to download it (offline?)");
    assert.doesNotMatch(r, /ENOTFOUND|fetch failed/);
  });

  const cases: { name: string; err: unknown; offline: boolean }[] = [
    { name: "ENOTFOUND (no DNS)", err: withCause("ENOTFOUND"), offline: true },
    { name: "EAI_AGAIN (DNS not answering)", err: withCause("EAI_AGAIN"), offline: true },
    { name: "ECONNREFUSED", err: withCause("ECONNREFUSED"), offline: true },
    { name: "ENETUNREACH", err: withCause("ENETUNREACH"), offline: true },
    { name: "a connect timeout of undici", err: withCause("UND_ERR_CONNECT_TIMEOUT"), offline: true },
    { name: "fetch failed with no cause", err: new TypeError("fetch failed"), offline: true },
    { name: "a corrupt model file is no network error", err: new Error("Protobuf parsing failed"), offline: false },
    { name: "a cause that is no network code", err: withCause("EACCES"), offline: false },
    { name: "not an error at all", err: "boom", offline: false },
    { name: "null", err: null, offline: false },
  ];
  for (const c of cases) test(`${c.name}: ${c.offline ? "offline" : "not offline"}`, () => assert.equal(offlineReason(c.err, "m", "/d") !== undefined, c.offline));
});
