/**
 * Where *Download Semantic Model* takes the model from, as the user chose it: the choices and the checks of
 * what was typed. No `vscode` import.
 */
import * as path from 'node:path';
import type { DownloadModelParams } from '../protocol/extension-methods.js';

export type ModelSourceKind = 'huggingface' | 'mirror' | 'folder';

export const MODEL_SOURCES: ReadonlyArray<{ source: ModelSourceKind; label: string; detail: string }> = [
  { source: 'huggingface', label: 'Download from Hugging Face', detail: 'https://huggingface.co/ (the default)' },
  {
    source: 'mirror',
    label: 'Download from a mirror...',
    detail: 'A server with the same layout as huggingface.co, e.g. your company mirror',
  },
  {
    source: 'folder',
    label: 'Use a folder on this machine...',
    detail: 'A folder holding the model files: config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx',
  },
];

/** The problem with a typed mirror address, or undefined when it will do. */
export function mirrorProblem(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return "Type the mirror's address, e.g. https://hf-mirror.example.com/";
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `A mirror is reached over http or https, not ${url.protocol}`;
  if (url.username || url.password) return 'Leave credentials out of the address';
  return undefined;
}

/** The request for a checked mirror address (with the trailing slash transformers.js joins paths to). */
export function mirrorParams(input: string): DownloadModelParams {
  const url = new URL(input.trim());
  return { remoteHost: url.href.endsWith('/') ? url.href : `${url.href}/` };
}

export function folderParams(folder: string): DownloadModelParams {
  if (!path.isAbsolute(folder)) throw new Error(`not an absolute folder: ${folder}`);
  return { fromFolder: folder };
}
