/**
 * transformers.js (`@huggingface/transformers`, with onnxruntime about 465 MB) is an optional
 * dependency: imported at the first model load, never by the gateway's bundle. A checkout imports
 * the package; a platform build of the .vsix carries it as one file with that platform's ONNX
 * runtime (runtime-builds.ts), the universal build not at all. Declared here is only what Grimoire
 * uses of it, so that a checkout installed without it (`npm ci --omit=optional`) still builds.
 */
import { pathToFileURL } from 'node:url';
import { bundledRuntimeDir, carriedRuntime, currentTarget, runtimeAdvice } from './runtime-builds.js';

export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

export interface Tensor {
  dims: number[];
  data: unknown;
  dispose(): void;
}

/** What transformers.js reports while it loads a model: a file started, downloading, done; the whole pipeline ready. */
export interface LoadProgress {
  status: 'initiate' | 'download' | 'progress' | 'progress_total' | 'done' | 'ready';
  file?: string;
  /** 0-100, for 'progress'. */
  progress?: number;
  loaded?: number;
  total?: number;
}

export type FeatureExtractionPipeline = (
  texts: string[],
  options: { pooling: 'mean'; normalize: boolean },
) => Promise<Tensor>;

export interface Transformers {
  pipeline(
    task: 'feature-extraction',
    model: string,
    options: {
      dtype: string;
      device: string;
      cache_dir: string;
      local_files_only: boolean;
      progress_callback?: (info: LoadProgress) => void;
    },
  ): Promise<FeatureExtractionPipeline>;
  env: {
    allowLocalModels: boolean;
    allowRemoteModels: boolean;
    localModelPath: string;
    /** Where model ids are downloaded from (default https://huggingface.co/). */
    remoteHost: string;
    cacheDir: string | null;
    useFSCache: boolean;
    useBrowserCache: boolean;
    logLevel: unknown;
    fetch: (url: string | URL, init?: unknown) => Promise<unknown>;
  };
  LogLevel: { ERROR: unknown };
}

/**
 * Neither the package nor a bundled runtime: semantic matching cannot run in this install (said with which
 * build has it, never asking anyone to run npm in the extension's folder).
 */
export class TransformersMissingError extends Error {
  override readonly name = 'TransformersMissingError';
  /** Which build carries it, for this platform. */
  readonly advice = runtimeAdvice();

  constructor(cause: unknown) {
    super(`transformers.js (${TRANSFORMERS_PACKAGE}, with its ONNX runtime) is not part of this install of Grimoire`, {
      cause,
    });
  }
}

// A specifier in a variable: TypeScript does not look for the package's types, and the import
// stays a real dynamic import at run time (this file compiles to CommonJS). In a .vsix the gateway
// runs from its bundle and uses only what its build carries; a checkout imports the package.
const importPackage = (): Promise<unknown> => {
  const dir = bundledRuntimeDir(__dirname);
  if (!dir) return import(TRANSFORMERS_PACKAGE);
  const entry = carriedRuntime(dir);
  if (!entry)
    return Promise.reject(new TransformersMissingError(new Error(`${dir} holds no runtime for ${currentTarget()}`)));
  return import(pathToFileURL(entry).href);
};
let load: () => Promise<unknown> = importPackage;

/** Loads transformers.js; a missing package or runtime rejects with TransformersMissingError. */
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
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(TRANSFORMERS_PACKAGE)
  );
}
