/**
 * transformers.js (`@huggingface/transformers`, with onnxruntime about 465 MB) is an optional
 * dependency: imported at the first model load, never by the bundle (esbuild leaves it external,
 * the .vsix does not carry it). Declared here is only what Grimoire uses of it, so that a checkout
 * installed without it (`npm ci --omit=optional`) still builds.
 */
import { packageRoot } from '../../config/paths.js';

export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

export interface Tensor {
  dims: number[];
  data: unknown;
  dispose(): void;
}

export type FeatureExtractionPipeline = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<Tensor>;

export interface Transformers {
  pipeline(task: 'feature-extraction', model: string, options: { dtype: string; device: string; cache_dir: string; local_files_only: boolean }): Promise<FeatureExtractionPipeline>;
  env: {
    allowLocalModels: boolean;
    allowRemoteModels: boolean;
    localModelPath: string;
    cacheDir: string | null;
    useFSCache: boolean;
    useBrowserCache: boolean;
    logLevel: unknown;
    fetch: (url: string | URL, init?: unknown) => Promise<unknown>;
  };
  LogLevel: { ERROR: unknown };
}

/** The package is not installed: its message says how to add it. */
export class TransformersMissingError extends Error {
  override readonly name = 'TransformersMissingError';

  constructor(cause: unknown) {
    super(`the optional package ${TRANSFORMERS_PACKAGE} is not installed; add it with \`npm install ${TRANSFORMERS_PACKAGE}\` in ${packageRoot}`, { cause });
  }
}

// A specifier in a variable: TypeScript does not look for the package's types, and the import
// stays a real dynamic import at run time (this file compiles to CommonJS).
const importPackage = (): Promise<unknown> => import(TRANSFORMERS_PACKAGE);
let load: () => Promise<unknown> = importPackage;

/** Loads transformers.js; a missing package rejects with TransformersMissingError. */
export async function importTransformers(): Promise<Transformers> {
  try {
    return (await load()) as Transformers;
  } catch (error) {
    if (isMissing(error)) throw new TransformersMissingError(error);
    throw error;
  }
}

/** Tests: replace the import (e.g. with one that fails as a missing package does); returns the restore function. */
export function replaceTransformersImport(replacement: () => Promise<unknown>): () => void {
  load = replacement;
  return () => {
    load = importPackage;
  };
}

function isMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(TRANSFORMERS_PACKAGE);
}
