/**
 * The summarizer chain: the configured summarizers in order, each skipped when disabled or not
 * available, each failure (refusal, rate limit, timeout, bad JSON) falling through to the next.
 * The model summarizers share one time budget (`timeBudgetMs`), after which the local one answers.
 * Undefined when none produced a summary: the caller then passes the raw result on.
 * The local summarizer's identifiers are attached to a model's summary too.
 */
import { errorMessage, logger } from '../../log.js';
import type { IntelSettings, SummarizerName } from '../../config/intel-settings.js';
import type { LocalSummary } from '../local/local-summarizer.js';
import type { LocalSummarizer } from '../local/summary-thread.js';
import type { Attempt, SummaryBody } from '../summary.js';
import { languageModelSummary, type LanguageModelFn } from './language-model-summarizer.js';
import { samplingSummary } from './sampling-summarizer.js';
import type { SummarizeRequest } from './types.js';

const log = logger('intel');

export interface ChainOutcome {
  body: SummaryBody;
  summarizer: SummarizerName;
  attempts: Attempt[];
}

export interface ChainOptions {
  settings: IntelSettings['summarizers'];
  languageModel?: LanguageModelFn;
  /** The local summarizer (in a worker thread: off the event loop). */
  local: LocalSummarizer;
}

export async function runChain(
  request: SummarizeRequest,
  options: ChainOptions,
): Promise<{ outcome?: ChainOutcome; attempts: Attempt[] }> {
  const attempts: Attempt[] = [];
  let local: Promise<LocalSummary> | undefined;
  const localSummary = () =>
    (local ??= options.local.summarize({ text: request.raw, tool: request.tool, args: request.args }));
  // The models share one time budget; once it is spent, the local summarizer answers.
  const deadline = performance.now() + options.settings.timeBudgetMs;
  for (const name of [...new Set(options.settings.order)]) {
    if (!options.settings[name].enabled) {
      attempts.push({ summarizer: name, outcome: 'disabled' });
      continue;
    }
    const left = Math.floor(deadline - performance.now());
    if (name !== 'local' && left <= 0) {
      attempts.push({
        summarizer: name,
        outcome: 'failed',
        detail: `the ${options.settings.timeBudgetMs} ms time budget is spent`,
      });
      continue;
    }
    const run = runnerFor(name, request, options, localSummary, left);
    if (!run) {
      attempts.push({ summarizer: name, outcome: 'not available' });
      continue;
    }
    const started = performance.now();
    try {
      const body = await run();
      const ms = Math.round(performance.now() - started);
      attempts.push({ summarizer: name, outcome: 'used', ms });
      const identifiers = name === 'local' ? body.identifiers : await safeIdentifiers(localSummary);
      return {
        outcome: { body: { ...body, ...(identifiers ? { identifiers } : {}) }, summarizer: name, attempts },
        attempts,
      };
    } catch (error) {
      const detail = errorMessage(error);
      attempts.push({ summarizer: name, outcome: 'failed', detail, ms: Math.round(performance.now() - started) });
      log.info(`summarizer '${name}' failed for ${request.power}:${request.tool}: ${detail}; trying the next`);
    }
  }
  return { attempts };
}

/** The first summarizer that would be tried: similar-result reuse only saves a model round trip. */
export function firstAvailable(
  request: Pick<SummarizeRequest, 'sample'>,
  options: ChainOptions,
): SummarizerName | undefined {
  for (const name of options.settings.order) {
    if (!options.settings[name].enabled) continue;
    if (name === 'sampling' && !request.sample) continue;
    if (name === 'vscodeLm' && !options.languageModel) continue;
    return name;
  }
  return undefined;
}

function runnerFor(
  name: SummarizerName,
  request: SummarizeRequest,
  options: ChainOptions,
  local: () => Promise<LocalSummary>,
  budgetLeftMs: number,
): (() => Promise<SummaryBody>) | undefined {
  switch (name) {
    case 'sampling': {
      const sample = request.sample;
      return sample
        ? () => samplingSummary(sample, request, Math.min(options.settings.sampling.timeoutMs, budgetLeftMs))
        : undefined;
    }
    case 'vscodeLm': {
      const model = options.languageModel;
      return model
        ? () => languageModelSummary(model, request, Math.min(options.settings.vscodeLm.timeoutMs, budgetLeftMs))
        : undefined;
    }
    case 'local':
      return async () => {
        const { kind: _kind, ...body } = await local();
        return body;
      };
    default:
      throw new Error(`no summarizer '${name satisfies never}'`);
  }
}

async function safeIdentifiers(local: () => Promise<LocalSummary>): Promise<SummaryBody['identifiers']> {
  try {
    return (await local()).identifiers;
  } catch (error) {
    log.warn(`identifiers could not be extracted: ${errorMessage(error)}`);
    return undefined;
  }
}
