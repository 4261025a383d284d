/**
 * `grimoire/downloadModel`: the semantic model into the data folder, on the user's request (Grimoire:
 * Download Semantic Model): from Hugging Face, from a mirror, or copied from a folder on this machine.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../log.js';
import { modelCacheDir } from '../resolve/create-resolver.js';
import { downloadModel } from '../resolve/semantic/model-download.js';
import type { Runtime } from '../runtime.js';
import type { DownloadModelParams, DownloadOutcome, DownloadProgress } from '../../protocol/extension-methods.js';

const log = logger('rpc');

/** Without a model in the request: the one the settings name (resolve.semantic.model). */
export async function fetchSemanticModel(
  runtime: Pick<Runtime, 'settings' | 'paths'>,
  params: unknown,
  progress: (p: DownloadProgress) => void,
): Promise<DownloadOutcome> {
  const p = (params && typeof params === 'object' ? params : {}) as DownloadModelParams;
  const model = typeof p.model === 'string' && p.model ? p.model : runtime.settings.resolve.semantic.model;
  const cacheDir = modelCacheDir(runtime.paths.data);
  const outcome =
    typeof p.fromFolder === 'string' && p.fromFolder
      ? await copyFromFolder(p.fromFolder, model, cacheDir, progress)
      : await downloadModel(
          {
            model,
            cacheDir,
            ...(typeof p.remoteHost === 'string' && p.remoteHost ? { remoteHost: p.remoteHost } : {}),
          },
          progress,
        );
  log.info(
    outcome.ok
      ? `model ${outcome.model} is in ${outcome.folder}; semantic matching uses it from the gateway's next start`
      : outcome.message,
  );
  return outcome;
}

/** Loads the folder's model (which checks its files), then copies the folder to where the gateway looks for `model`. */
async function copyFromFolder(
  folder: string,
  model: string,
  cacheDir: string,
  progress: (p: DownloadProgress) => void,
): Promise<DownloadOutcome> {
  if (!path.isAbsolute(folder))
    return { ok: false, model, message: `The model folder must be an absolute path; got ${folder}.` };
  const loaded = await downloadModel({ model: folder, cacheDir }, progress);
  if (!loaded.ok) return { ...loaded, model };
  const target = path.isAbsolute(model) ? model : path.join(cacheDir, model);
  if (path.resolve(target) === path.resolve(folder)) return { ok: true, model, folder: target, files: loaded.files };
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.cpSync(folder, target, { recursive: true, dereference: true });
  } catch (error) {
    return {
      ok: false,
      model,
      message: `The model in ${folder} loads, but could not be copied to ${target} (${errorMessage(error)}).`,
    };
  }
  return { ok: true, model, folder: target, files: loaded.files };
}
