import type { Config, ProviderName } from "../config/config.js";
import type { EmbeddingProvider } from "./provider.js";

/** Builds the configured providers, in fallback order. Provider modules load lazily. */
export async function createProviders(config: Config): Promise<EmbeddingProvider[]> {
  const make: Record<ProviderName, () => Promise<EmbeddingProvider>> = {
    ollama: async () => new (await import("./ollama.js")).OllamaProvider(config.embedding.ollama, config.embedding.models),
    transformers: async () => new (await import("./transformers.js")).TransformersProvider(config.embedding.transformers, config.embedding.models),
  };
  const out: EmbeddingProvider[] = [];
  for (const name of config.embedding.order) out.push(await make[name]());
  return out;
}

export interface Selected {
  index: number;
  provider: EmbeddingProvider;
  dims: number;
}

export interface Unhealthy {
  provider: string;
  model: string;
  reason: string;
  fix?: string;
}

/**
 * Returns the first provider at or after `from` whose health check passes, plus the reasons the
 * ones before it failed. An empty chain yields no provider and the reason "no embedding provider
 * configured".
 */
export async function firstHealthy(providers: EmbeddingProvider[], from = 0): Promise<{ selected?: Selected; unhealthy: Unhealthy[] }> {
  const unhealthy: Unhealthy[] = [];
  for (let i = from; i < providers.length; i++) {
    const p = providers[i]!;
    const h = await p.health();
    if (h.ok) return { selected: { index: i, provider: p, dims: h.dims }, unhealthy };
    unhealthy.push({ provider: p.name, model: p.model, reason: h.reason, ...(h.fix ? { fix: h.fix } : {}) });
  }
  return { unhealthy };
}

/** How long a long-running process (the daemon, `mem ui`) keeps the provider it picked before asking again. */
export const PICK_TTL_MS = 60_000;

/**
 * The first healthy provider, asked again at most every `PICK_TTL_MS`: what a process that stays
 * up searches with (a provider that went down, or came up, is noticed within a minute).
 */
export function pickEvery(providers: () => Promise<EmbeddingProvider[]>, now: () => number = Date.now): () => Promise<{ selected?: Selected; unhealthy: Unhealthy[] }> {
  let picked: Promise<{ selected?: Selected; unhealthy: Unhealthy[] }> | undefined;
  let pickedAt = 0;
  return () => {
    if (!picked || now() - pickedAt > PICK_TTL_MS) {
      pickedAt = now();
      picked = providers().then((ps) => firstHealthy(ps));
    }
    return picked;
  };
}

/** One line explaining why no provider could be used. */
export function describeUnhealthy(list: Unhealthy[]): string {
  if (list.length === 0) return "no embedding provider configured (embedding.order is empty)";
  const fix = list.find((u) => u.fix)?.fix;
  return `no embedding provider available: ${list.map((u) => u.reason).join("; ")}${fix ? ` (fix: ${fix}; \`mem doctor\` checks them all)` : ""}`;
}
