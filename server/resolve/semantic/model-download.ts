/**
 * Fetches the embedding model into the data folder (`<data>/models`) on the user's request, through
 * transformers.js' own loading code (the same files, layout and cache the embedder reads), with
 * progress per file. A folder model is only loaded, never fetched. Every failure is one sentence
 * that says what was tried and what the user can do.
 */
import * as path from 'node:path';
import { errorMessage } from '../../log.js';
import type { DownloadOutcome, DownloadProgress } from '../../../protocol/extension-methods.js';
import { isLocalModel, loadExtractor } from './model-loader.js';
import { TransformersMissingError, type LoadProgress } from './transformers-module.js';

export interface DownloadRequest {
  /** A Hugging Face model id, or an absolute folder. */
  model: string;
  /** `<data>/models`. */
  cacheDir: string;
  /** A mirror instead of transformers.js' default host. */
  remoteHost?: string;
}

const MODEL_FILES = 'config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx';

export async function downloadModel(
  request: DownloadRequest,
  progress: (p: DownloadProgress) => void = () => undefined,
): Promise<DownloadOutcome> {
  const { model, cacheDir } = request;
  const folder = isLocalModel(model) ? model : path.join(cacheDir, model);
  const files = new Set<string>();
  const onProgress = (info: LoadProgress) => {
    if (!info.file) return;
    files.add(info.file);
    if (info.status === 'progress')
      progress({
        file: info.file,
        ...(typeof info.progress === 'number' ? { percent: Math.round(info.progress) } : {}),
      });
    else if (info.status === 'initiate' || info.status === 'done')
      progress({ file: info.file, ...(info.status === 'done' ? { percent: 100 } : {}) });
  };
  try {
    const extractor = await loadExtractor(
      { model, cacheDir, allowRemoteModels: true, ...(request.remoteHost ? { remoteHost: request.remoteHost } : {}) },
      onProgress,
    );
    await (extractor as { dispose?: () => Promise<void> }).dispose?.();
    return { ok: true, model, folder, files: [...files].sort() };
  } catch (error) {
    return { ok: false, model, message: failure(request, folder, error) };
  }
}

function failure(request: DownloadRequest, folder: string, error: unknown): string {
  if (error instanceof TransformersMissingError) {
    return (
      `Semantic matching cannot run here: ${error.message}, so the model was not downloaded. ` +
      `${capitalized(error.advice)}. Grimoire matches your requests by their words (lexical ` +
      `matching) meanwhile.`
    );
  }
  if (isLocalModel(request.model))
    return `The model folder ${folder} could not be loaded (${errorMessage(error)}): it needs ${MODEL_FILES}.`;
  const host = request.remoteHost ?? 'https://huggingface.co/';
  return (
    `The model ${request.model} could not be downloaded from ${host} (${errorMessage(error)}). ` +
    `Check the network connection or proxy and run the command again, or put its files (${MODEL_FILES}) in ${folder} by hand.`
  );
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
