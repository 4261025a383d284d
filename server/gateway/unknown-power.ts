import { preview } from '../util/preview.js';

export class UnknownPowerError extends Error {
  constructor(
    readonly requested: string,
    readonly known: string[],
    why?: string,
  ) {
    super(
      `${why ? `Power '${preview(requested)}' ${why}` : `Unknown power '${preview(requested)}'`}. Known powers: ${known.length ? known.join(', ') : '(none configured)'}. ` +
        'Use one of these names, or call resolve_intent to find the right one.',
    );
    this.name = 'UnknownPowerError';
  }
}
