/**
 * Small DOM helpers for the dashboard. Text is only ever set as text (never as markup); no inline style
 * attributes (the CSP allows none).
 */

export type Child = Node | string;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Record<string, string>,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function el(tag: string, attributes?: Record<string, string>, ...children: Child[]): HTMLElement;
export function el(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attributes: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** An SVG `<title>`: the tooltip of its parent. */
export function svgTitle(text: string): SVGElement {
  return svg('title', {}, text);
}

export function button(
  label: string,
  onClick: () => void,
  options: { secondary?: boolean; testId?: string; title?: string; disabled?: boolean } = {},
): HTMLElement {
  const attributes: Record<string, string> = {};
  if (options.disabled) attributes.disabled = '';
  if (options.testId) attributes['data-testid'] = options.testId;
  if (options.title) attributes.title = options.title;
  const node = el('vscode-button', attributes, label);
  if (options.secondary) node.setAttribute('secondary', '');
  node.addEventListener('click', onClick);
  return node;
}

/** A native select (themed by dashboard.css) with a first "any" option. */
export function select(
  label: string,
  options: string[],
  value: string | undefined,
  onChange: (value: string | undefined) => void,
  testId: string,
): HTMLElement {
  const node = el(
    'select',
    { 'aria-label': label, 'data-testid': testId },
    el('option', { value: '' }, `Any ${label.toLowerCase()}`),
    ...options.map((option) => el('option', { value: option }, option)),
  );
  node.value = value ?? '';
  node.addEventListener('change', () => onChange(node.value || undefined));
  return el('label', { class: 'filter' }, el('span', { class: 'muted small' }, label), node);
}

/** A bar whose width is a percentage (set through the CSSOM, which the CSP allows). */
export function bar(percent: number, className: string): HTMLElement {
  const fill = el('div', { class: `fill ${className}` });
  fill.style.width = `${Math.max(0, Math.min(100, percent))}%`;
  return el('div', { class: 'bar' }, fill);
}

export function section(title: string, testId: string, ...children: Child[]): HTMLElement {
  return el('section', { 'data-testid': testId }, el('h2', {}, title), ...children);
}
