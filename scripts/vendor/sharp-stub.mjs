// Stands in for sharp in mem's transformers.js bundle (scripts/bundle-transformers.mjs): transformers.js
// only needs a truthy import at load time; mem embeds text, never images.
export default function sharp() {
  throw new Error("mem's transformers.js bundle has no image support (sharp is not included)");
}
