/**
 * Loads a transformers.js feature-extraction pipeline, from a Hugging Face model id (downloaded
 * into `cacheDir`, or found there) or from a local model folder (never remote).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  importTransformers,
  type FeatureExtractionPipeline,
  type LoadProgress,
  type Transformers,
} from './transformers-module.js';

export { importTransformers };

export interface ModelSource {
  /** A Hugging Face model id, or an absolute folder path. */
  model: string;
  allowRemoteModels: boolean;
  cacheDir: string;
  /** Where a model id is downloaded from, when not transformers.js' default (a mirror). */
  remoteHost?: string;
}

/** Weights file onnx/model.onnx; other dtypes would pick model_quantized.onnx, model_fp16.onnx... */
export const DTYPE = 'fp32';

export const isLocalModel = (model: string): boolean => path.isAbsolute(model);

let previous: Promise<unknown> = Promise.resolve();
/** transformers.js' own remote host, restored after a load from a mirror. */
let defaultHost: string | undefined;

/**
 * transformers.js reads its process-wide `env` all through a load (some internal look-ups take no
 * per-call options), so loads run one at a time, each after setting every knob it depends on.
 */
export function loadExtractor(
  source: ModelSource,
  progress?: (info: LoadProgress) => void,
): Promise<FeatureExtractionPipeline> {
  const next = previous.then(async () => {
    // transformers.js and its native runtime (about 50 MB) are not loaded for a model that cannot load.
    const folder = isLocalModel(source.model) ? source.model : path.join(source.cacheDir, source.model);
    if (!remoteAllowed(source) && !fs.existsSync(folder))
      throw Object.assign(new Error(`no model folder ${folder}`), { name: 'ModelFileNotFoundError' });
    const transformers = await importTransformers();
    configure(transformers, source);
    return transformers.pipeline('feature-extraction', source.model, {
      dtype: DTYPE,
      device: 'cpu',
      cache_dir: source.cacheDir,
      local_files_only: !remoteAllowed(source),
      ...(progress ? { progress_callback: progress } : {}),
    });
  });
  previous = next.catch(() => undefined);
  return next;
}

const remoteAllowed = (source: ModelSource): boolean => source.allowRemoteModels && !isLocalModel(source.model);

function configure({ env, LogLevel }: Transformers, source: ModelSource): void {
  env.allowLocalModels = true;
  env.allowRemoteModels = remoteAllowed(source);
  // A model id is looked up as <localModelPath>/<id>/ first, then in the cache, which uses the
  // same layout: both point into our data dir, never into node_modules.
  env.localModelPath = source.cacheDir;
  defaultHost ??= env.remoteHost;
  env.remoteHost = source.remoteHost ?? defaultHost;
  env.cacheDir = source.cacheDir;
  env.useFSCache = true;
  env.useBrowserCache = false;
  // It warns on every file it looks for and misses; the Embedder reports the outcome once.
  env.logLevel = LogLevel.ERROR;
}
