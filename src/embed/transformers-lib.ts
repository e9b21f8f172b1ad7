/**
 * transformers.js as mem ships it: bundled into dist/vendor/transformers.js by
 * scripts/bundle-transformers.mjs (without sharp and onnxruntime-web, which mem never uses), so an
 * install of mem needs nothing but the npm registry. onnxruntime-node, its native runtime, is an
 * optional dependency loaded by the bundle. Typed by the @xenova/transformers devDependency.
 */
export type TransformersLib = typeof import("@xenova/transformers");

/** Where the bundle is, from dist/src/embed/. */
export const TRANSFORMERS_BUNDLE = new URL("../../vendor/transformers.js", import.meta.url);

/** Loads the bundle (once: the module cache keeps it, and its `env` is process-global). */
export async function loadTransformers(): Promise<TransformersLib> {
  try {
    return (await import(TRANSFORMERS_BUNDLE.href)) as TransformersLib;
  } catch (err) {
    const code = (err as { code?: string } | null)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" && String((err as Error).message).includes("onnxruntime-node")) {
      throw new Error("onnxruntime-node is not installed (an optional dependency of mem; npm skips it on platforms it does not support)", { cause: err });
    }
    if (code === "ERR_MODULE_NOT_FOUND" && String((err as Error).message).includes("vendor/transformers.js")) {
      throw new Error("the transformers.js bundle (dist/vendor/transformers.js) is missing; run `npm run build` in the mem package", { cause: err });
    }
    throw err;
  }
}
