/** `grimoire/downloadModel`: the semantic model into the data folder, on the user's request (Grimoire: Download Semantic Model). */
import { logger } from '../log.js';
import { modelCacheDir } from '../resolve/create-resolver.js';
import { downloadModel } from '../resolve/semantic/model-download.js';
import type { Runtime } from '../runtime.js';
import type { DownloadModelParams, DownloadOutcome, DownloadProgress } from '../../protocol/extension-methods.js';

const log = logger('rpc');

/** Without a model in the request: the one the settings name (resolve.semantic.model). */
export async function fetchSemanticModel(runtime: Pick<Runtime, 'settings' | 'paths'>, params: unknown, progress: (p: DownloadProgress) => void): Promise<DownloadOutcome> {
  const p = (params && typeof params === 'object' ? params : {}) as DownloadModelParams;
  const model = typeof p.model === 'string' && p.model ? p.model : runtime.settings.resolve.semantic.model;
  const remoteHost = typeof p.remoteHost === 'string' && p.remoteHost ? p.remoteHost : undefined;
  const outcome = await downloadModel({ model, cacheDir: modelCacheDir(runtime.paths.data), ...(remoteHost ? { remoteHost } : {}) }, progress);
  log.info(outcome.ok ? `model ${outcome.model} is in ${outcome.folder}; semantic matching uses it from the gateway's next start` : outcome.message);
  return outcome;
}
