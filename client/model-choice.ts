/** Which VS Code language model summarizes tool results: a small, fast one when there is a choice. No `vscode` import. */

export interface ModelDescription {
  vendor: string;
  family: string;
  name: string;
}

const SMALL = /mini|flash|haiku|nano|small/i;

/** Copilot's first, small ones first; otherwise the order VS Code gave. */
export function chooseModel<T extends ModelDescription>(models: readonly T[]): T | undefined {
  const rank = (model: T) =>
    (model.vendor === 'copilot' ? 0 : 2) + (SMALL.test(model.family) || SMALL.test(model.name) ? 0 : 1);
  return [...models]
    .map((model, index) => ({ model, index }))
    .sort((a, b) => rank(a.model) - rank(b.model) || a.index - b.index)[0]?.model;
}
