/**
 * VS Code's language model, lent to the gateway's summarizer (server/intel, summarizer 2): the
 * client says whether a model is there; each prompt goes to it as a server -> client request,
 * cancelled when the summarizer gives up. Refused consent, no model or a rate limit come back as a
 * rejected request, and the summarizer falls back to the next one.
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver/node';
import type { LanguageModelFn } from '../intel/intel.js';
import {
  languageModelRequest,
  type LanguageModelAvailability,
  type LanguageModelReply,
  type RequestType,
} from '../../protocol/extension-methods.js';

/** A request to the extension, typed by its declaration (GatewayRpc's one way to send one). */
export type AskClient = <P, R>(type: RequestType<P, R>, params: NoInfer<P>, token: CancellationToken) => Promise<R>;

export function languageModelVia(ask: AskClient): LanguageModelFn {
  return async (prompt, signal) => {
    if (signal.aborted) throw new Error('the summary was no longer needed');
    const source = new CancellationTokenSource();
    const abort = () => source.cancel();
    signal.addEventListener('abort', abort, { once: true });
    try {
      // Typed as declared, but the extension may answer nothing: checked before it is used.
      const reply: LanguageModelReply | null = await ask(languageModelRequest, { prompt }, source.token);
      if (!reply || typeof reply.text !== 'string') throw new Error('the VS Code language model gave no text');
      return reply.text;
    } finally {
      signal.removeEventListener('abort', abort);
      source.dispose();
    }
  };
}

export function parseAvailability(params: unknown): LanguageModelAvailability {
  const p = (params && typeof params === 'object' ? params : {}) as Partial<LanguageModelAvailability>;
  return {
    available: p.available === true,
    models: Array.isArray(p.models) ? p.models.filter((m): m is string => typeof m === 'string') : [],
  };
}
