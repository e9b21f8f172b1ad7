/** How a search says its vector leg did not run; the reason follows. The CLI shortens it (src/cli/vector-note.ts). */
export const VECTOR_LEG_SKIPPED = "vector leg skipped, answering from BM25 only: ";
