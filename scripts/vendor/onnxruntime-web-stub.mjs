// Stands in for onnxruntime-web in mem's transformers.js bundle (scripts/bundle-transformers.mjs):
// transformers.js imports it beside onnxruntime-node and uses it only outside Node.
export const env = {};
export default undefined;
