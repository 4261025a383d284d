/**
 * Extractive summary of prose: sentences scored by the document frequency of their content words
 * (log-scaled, normalised by length), with a bonus for the opening and for section starts; the
 * best are returned in document order.
 */
import { isStopWord } from '../../text/stop-words.js';

export interface Ranked {
  text: string;
  index: number;
  score: number;
}

const MAX_CANDIDATES = 4_000;

export function splitSentences(text: string): Array<{ text: string; sectionStart: boolean }> {
  const out: Array<{ text: string; sectionStart: boolean }> = [];
  let sectionStart = true;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line) {
      sectionStart = true;
      continue;
    }
    if (/^#{1,6}\s/.test(line) || /^[=-]{3,}$/.test(line)) {
      sectionStart = true;
      continue;
    }
    const parts = line.length > 160 ? line.split(/(?<=[.!?])\s+(?=[A-Z0-9"'([])/) : [line];
    for (const part of parts) {
      out.push({ text: part.replace(/^[-*+>]\s+|^\d+[.)]\s+/, ''), sectionStart });
      sectionStart = false;
      if (out.length >= MAX_CANDIDATES) return out;
    }
  }
  return out;
}

export function rankSentences(text: string, count: number): Ranked[] {
  const sentences = splitSentences(text);
  const wordsOf = (s: string) => (s.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []).filter((w) => !isStopWord(w));
  const documentFrequency = new Map<string, number>();
  const tokenized = sentences.map((s) => {
    const words = new Set(wordsOf(s.text));
    for (const word of words) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    return words;
  });
  const n = Math.max(1, sentences.length);
  // A word weighs most when it recurs in a few sentences: log(1 + df) * log(N / df). Boilerplate that
  // is in every sentence weighs next to nothing.
  const weight = (word: string) => {
    const df = documentFrequency.get(word) ?? 1;
    return Math.log(1 + df) * Math.log(1 + n / df);
  };
  const ranked: Ranked[] = sentences.map((sentence, index) => {
    const words = tokenized[index]!;
    const letters = (sentence.text.match(/[A-Za-z]/g) ?? []).length;
    if (words.size < 3 || sentence.text.length < 20 || letters < sentence.text.length * 0.5)
      return { text: sentence.text, index, score: 0 };
    let score = 0;
    for (const word of words) score += weight(word);
    score /= Math.sqrt(words.size);
    if (index < 3) score *= 1.3;
    else if (sentence.sectionStart) score *= 1.15;
    if (sentence.text.length > 300) score *= 0.7;
    return { text: sentence.text, index, score };
  });
  // Best first, skipping sentences that repeat one already taken (more than half their words shared).
  const chosen: Ranked[] = [];
  for (const candidate of ranked.filter((r) => r.score > 0).sort((a, b) => b.score - a.score || a.index - b.index)) {
    const words = tokenized[candidate.index]!;
    const redundant = chosen.some((c) => overlap(words, tokenized[c.index]!) > 0.5);
    if (!redundant) chosen.push(candidate);
    if (chosen.length >= count) break;
  }
  return chosen.sort((a, b) => a.index - b.index);
}

function overlap(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.max(1, Math.min(a.size, b.size));
}
