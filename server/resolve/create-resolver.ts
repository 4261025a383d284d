import * as path from 'node:path';
import type { Store } from '../store/store.js';
import type { SemanticModelState } from '../../protocol/records.js';
import { DEFAULT_CALIBRATIONS } from './default-calibration.js';
import { HybridResolver } from './hybrid-resolver.js';
import { Embedder } from './semantic/embedder.js';
import { EmbeddingCache } from '../text/embedding-cache.js';

/** Where models are downloaded and looked up: the data folder's models/. */
export function modelCacheDir(dataDir: string): string {
  return path.join(dataDir, 'models');
}

/** The part of the `resolve` settings (config/settings.ts) the resolver is built from. */
export interface ResolverSettings {
  semantic: { enabled: boolean; model: string; allowRemoteModels: boolean };
}

/** The resolver as the gateway runs it: lexical always, semantic when the model loads. */
export function createResolver(
  settings: ResolverSettings,
  store: Store,
  dataDir: string,
): {
  resolver: HybridResolver;
  embedder: Embedder;
  /** Shared with other users of embeddings (server/intel); absent when semantic matching is off. */ embeddings?: EmbeddingCache;
} {
  const embedder = new Embedder({
    enabled: settings.semantic.enabled,
    model: settings.semantic.model,
    allowRemoteModels: settings.semantic.allowRemoteModels,
    cacheDir: modelCacheDir(dataDir),
  });
  const describe = () => {
    const status = embedder.status();
    if (status.state === 'ready') return `model ${status.model}`;
    // What the agent and the dashboard see: the reason itself (paths, package names) stays in the log.
    if (status.state === 'unavailable') return 'semantic matching unavailable';
    return status.detail ?? `model ${status.model} is ${status.state}`;
  };
  const embeddings = settings.semantic.enabled ? new EmbeddingCache(store, embedder) : undefined;
  const state = (): SemanticModelState => {
    const now = embedder.status().state;
    return now === 'idle' ? 'loading' : now;
  };
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS, embeddings, describe, state);
  return { resolver, embedder, embeddings };
}
