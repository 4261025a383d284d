/**
 * Sentence embeddings (mean-pooled, L2-normalised) from a lazily loaded model. Never throws and
 * never blocks: until the model is ready, or when it cannot be had, `embed` resolves undefined and
 * `status()` says why, so the resolver runs lexical-only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../../log.js';
import { DTYPE, isLocalModel, loadExtractor } from './model-loader.js';
import { TransformersMissingError, type FeatureExtractionPipeline } from './transformers-module.js';
import type { EmbedderState, EmbeddingModel } from '../../text/embedding-cache.js';

export interface EmbedderOptions {
  enabled: boolean;
  /** A Hugging Face model id like 'Xenova/all-MiniLM-L6-v2', or an absolute folder holding
   *  config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx. */
  model: string;
  allowRemoteModels: boolean;
  /** Where downloaded models are cached (and looked up), e.g. <dataDir>/models. */
  cacheDir: string;
}

export interface EmbedderStatus {
  state: EmbedderState;
  model: string;
  /** A sentence for people: why semantic matching is off or unavailable. */
  detail?: string;
}

const BATCH_SIZE = 32;
const LOCAL_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
const LEXICAL_ONLY = 'the resolver runs lexical-only';
const log = logger('semantic');
let toldMissingPackage = false;

export class Embedder implements EmbeddingModel {
  /** Identifies the vectors this embedder makes (model + dtype); keys cached vectors. */
  readonly modelKey: string;
  private state: EmbedderState;
  private detail: string | undefined;
  private extractor: FeatureExtractionPipeline | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly options: EmbedderOptions) {
    this.state = options.enabled ? 'idle' : 'off';
    this.modelKey = `${modelIdentity(options.model)}#${DTYPE}`;
  }

  status(): EmbedderStatus {
    const model = this.options.model;
    if (this.state === 'off')
      return { state: 'off', model, detail: 'semantic matching is turned off in settings: lexical-only' };
    if (this.state === 'unavailable') return { state: 'unavailable', model, detail: this.detail };
    if (this.state === 'loading')
      return { state: 'loading', model, detail: `loading model ${model}; lexical-only until it is ready` };
    return { state: this.state, model };
  }

  /** Starts loading the model in the background, once. */
  warmUp(): void {
    void this.ready();
  }

  /** Starts loading if needed; true once the model is ready, false when it is off or unavailable. Never rejects. */
  ready(): Promise<boolean> {
    if (this.state === 'off') return Promise.resolve(false);
    this.loading ??= this.load();
    return this.loading.then(() => this.state === 'ready');
  }

  /** One vector per text, or undefined while the model is not ready (this starts loading it). */
  async embed(texts: string[]): Promise<Float32Array[] | undefined> {
    const extractor = this.extractor;
    if (this.state !== 'ready' || !extractor) {
      this.warmUp();
      return undefined;
    }
    try {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += BATCH_SIZE) {
        vectors.push(...(await embedBatch(extractor, texts.slice(start, start + BATCH_SIZE))));
      }
      return vectors;
    } catch (error) {
      this.fail(`embedding with model ${this.options.model} failed (${describe(error)})`);
      return undefined;
    }
  }

  private async load(): Promise<void> {
    this.state = 'loading';
    const started = Date.now();
    try {
      this.extractor = await loadExtractor(this.options);
      this.state = 'ready';
      log.info(`model ${this.options.model} ready in ${Date.now() - started} ms`);
    } catch (error) {
      if (error instanceof TransformersMissingError)
        this.fail(`semantic matching is off: ${error.message} (${error.advice})`, true);
      else this.fail(loadFailure(this.options, error));
    }
  }

  private fail(reason: string, missingPackage = false): void {
    if (this.state === 'unavailable') return;
    this.state = 'unavailable';
    this.detail = `${reason}: ${LEXICAL_ONLY}`;
    this.extractor = undefined;
    if (missingPackage) {
      // An install without the optional package: said once per process, at info, with how to add it.
      if (!toldMissingPackage) log.info(this.detail);
      toldMissingPackage = true;
      return;
    }
    // The reason may name files and packages: it is for the output channel, not for every start's warnings.
    log.info('semantic matching unavailable: lexical only (the reason is logged at debug level)');
    log.debug(this.detail);
  }
}

async function embedBatch(extractor: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const output = await extractor(texts, { pooling: 'mean', normalize: true });
  try {
    const [rows, dim] = output.dims as [number, number];
    const data = output.data as Float32Array;
    if (rows !== texts.length || data.length !== rows * dim)
      throw new Error(`unexpected output shape [${output.dims.join(', ')}]`);
    return Array.from({ length: rows }, (_, row) => data.slice(row * dim, (row + 1) * dim));
  } finally {
    output.dispose();
  }
}

function loadFailure(options: EmbedderOptions, error: unknown): string {
  if (isLocalModel(options.model)) {
    const absent = LOCAL_MODEL_FILES.filter((file) => !fs.existsSync(path.join(options.model, file)));
    if (absent.length > 0) return `model folder ${options.model} has no ${absent.join(', ')}`;
    return `model folder ${options.model} could not be loaded (${describe(error)})`;
  }
  if ((error as Error | undefined)?.name === 'ModelFileNotFoundError' && !options.allowRemoteModels) {
    return `model ${options.model} is not cached in ${options.cacheDir} and remote models are disabled`;
  }
  return `model ${options.model} could not be downloaded or loaded (${describe(error)})`;
}

/** The message, plus its cause's (fetch failures hide the reason there). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** A local folder's identity includes its weights file's size and time, so swapped weights get new vectors. */
function modelIdentity(model: string): string {
  if (!isLocalModel(model)) return model;
  try {
    const stat = fs.statSync(path.join(model, 'onnx', 'model.onnx'));
    return `${model}@${stat.size}-${Math.trunc(stat.mtimeMs)}`;
  } catch {
    return model;
  }
}
