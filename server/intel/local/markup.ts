/** Markdown and HTML documents: title, outline, the best sentences, links. */
import { clip, joinWithin, plural } from './format.js';
import type { Findings } from './findings.js';
import { rankSentences } from './sentences.js';
import { textIdentifiers } from './text-ids.js';

export function isHtml(text: string): boolean {
  const head = text.slice(0, 2000).toLowerCase();
  return (
    /<!doctype html|<html[\s>]|<body[\s>]|<head[\s>]/.test(head) ||
    (text.match(/<\/?(div|p|span|a|li|td|h[1-6])[\s>]/gi)?.length ?? 0) > 20
  );
}

export function isMarkdown(lines: string[]): boolean {
  const headings = lines.filter((l) => /^#{1,6}\s+\S/.test(l)).length;
  const links = lines.filter((l) => /\[[^\]]+\]\([^)]+\)/.test(l)).length;
  const fences = lines.filter((l) => /^```/.test(l)).length;
  return headings >= 2 || (headings >= 1 && (links >= 2 || fences >= 2)) || links >= 5;
}

export function summarizeMarkdown(text: string, lines: string[], out: Findings): void {
  const headings = lines
    .filter((l) => /^#{1,6}\s+\S/.test(l))
    .map((l) => ({ level: /^#+/.exec(l)![0].length, text: l.replace(/^#+\s+/, '').trim() }));
  const fences = lines.filter((l) => /^```/.test(l)).length / 2;
  const title = headings.find((h) => h.level === 1)?.text ?? headings[0]?.text;
  out.finding(
    `Markdown document${title ? ` "${clip(title, 80)}"` : ''}: ` +
      `${plural(lines.length, 'line')}, ${plural(headings.length, 'heading')}` +
      `${fences >= 1 ? `, ${plural(Math.floor(fences), 'code block')}` : ''}.`,
  );
  const top = headings.filter((h) => h.level <= 2 && h.text !== title).map((h) => h.text);
  if (top.length > 0) out.finding(`Sections: ${joinWithin(top, 240)}.`);
  const prose = stripCode(lines).join('\n');
  for (const sentence of rankSentences(prose, 3)) out.finding(sentence.text);
  out.identifiers(
    'headings',
    headings.map((h) => h.text),
    2,
  );
  const linkTargets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  const ids = textIdentifiers(text);
  const urls = [...new Set([...linkTargets.filter((l) => /^https?:/.test(l)), ...(ids.get('urls') ?? [])])];
  out.identifiers('links', urls, 1);
  const local = linkTargets.filter((l) => !/^https?:|^#|^mailto:/.test(l));
  if (local.length) out.identifiers('relative links', local, 2);
  for (const [kind, values] of ids) if (kind !== 'urls') out.identifiers(kind, values, 3);
}

export function summarizeHtml(text: string, out: Findings): void {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.trim();
  const headings = [...text.matchAll(/<h([1-3])[^>]*>([\s\S]*?)<\/h\1>/gi)]
    .map((m) => stripTags(m[2]!))
    .filter(Boolean);
  const links = [...text.matchAll(/<a\s[^>]*href\s*=\s*["']([^"'#][^"']*)["']/gi)].map((m) => m[1]!);
  const body = stripTags(
    text
      .replace(/<(script|style|nav|footer|header)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<\/(p|div|li|h[1-6]|tr|br)>/gi, '\n'),
  );
  out.finding(
    `HTML page${title ? ` "${clip(decode(title), 80)}"` : ''}: ` +
      `${plural(headings.length, 'heading')}, ${plural(links.length, 'link')}, ` +
      `${plural(body.length, 'character')} of text.`,
  );
  if (headings.length > 0) out.finding(`Headings: ${joinWithin(headings.map(decode), 240)}.`);
  for (const sentence of rankSentences(decode(body), 3)) out.finding(sentence.text);
  out.identifiers('links', [...new Set(links)], 1);
  out.identifiers('headings', headings.map(decode), 2);
}

function stripCode(lines: string[]): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (!inFence) out.push(line);
  }
  return out;
}

const stripTags = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, ' ');
