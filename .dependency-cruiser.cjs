/**
 * The import rules `npm run lint` enforces with dependency-cruiser: no import circles (type-only
 * imports count), and no upward imports between the layers below, lowest first. A file may import
 * from its own layer and those beneath it. docs/architecture.md says why each folder stands where
 * it does; a new folder of src/ must be placed here before it may be imported.
 */
const LAYERS = [
  ["util"],
  ["contract", "memory", "tasks", "render"],
  ["config"],
  ["redact"],
  ["store", "embed"],
  ["project", "tiers", "app"],
  ["retrieve"],
  ["indexer"],
  ["capture", "anchor", "cold", "team"],
  ["inject"],
  ["brief"],
  ["service"],
  ["hooks", "daemon", "mcp", "web", "health", "install", "cli", "maintenance", "freshness"],
];

/** A path pattern for a layer's folders: src/<folder>/…, src/app.ts, and the top-level indexer/. */
const pattern = (units) =>
  `^(${units
    .map((u) => (u === "indexer" ? "indexer/" : u === "app" ? "src/app\\.ts$" : `src/${u}/`))
    .join("|")})`;

const placed = LAYERS.flat().filter((u) => u !== "indexer" && u !== "app");

module.exports = {

  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import circles, type-only ones included: move the shared type or helper down into its own file.",
      from: {},
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map((units, i) => ({
      name: `layer-${i + 1}-no-upward`,
      severity: "error",
      comment: `${units.join(", ")} may not import from a layer above it (docs/architecture.md, "Layers"): move the shared type or helper down.`,
      from: { path: pattern(units) },
      to: { path: pattern(LAYERS.slice(i + 1).flat()) },
    })),
    {
      name: "every-folder-placed",
      severity: "error",
      comment: "Every folder of src/ stands in a layer: add it to LAYERS in .dependency-cruiser.cjs.",
      from: { path: "^src/" },
      to: { path: "^src/[^/]+/", pathNot: `^src/(${placed.join("|")})/` },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to no file.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules)/|\\.d\\.(c|m)?ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
