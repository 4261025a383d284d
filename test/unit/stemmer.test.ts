import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stem } from '../../server/text/stem.js';

/**
 * The stemmer is the maintained `wink-porter2-stemmer` (Porter2, the Snowball English stemmer).
 * These pairs are the reference vocabulary's: the sample of voc.txt / output.txt that the
 * Snowball English stemmer's definition publishes ("consign" ... "constant", "knack" ... "knots"),
 * and the exceptional forms that definition lists.
 */
const REFERENCE: Array<[string, string]> = [
  ['consign', 'consign'],
  ['consigned', 'consign'],
  ['consigning', 'consign'],
  ['consignment', 'consign'],
  ['consist', 'consist'],
  ['consisted', 'consist'],
  ['consistency', 'consist'],
  ['consistent', 'consist'],
  ['consistently', 'consist'],
  ['consisting', 'consist'],
  ['consists', 'consist'],
  ['consolation', 'consol'],
  ['consolations', 'consol'],
  ['consolatory', 'consolatori'],
  ['console', 'consol'],
  ['consoled', 'consol'],
  ['consoles', 'consol'],
  ['consolidate', 'consolid'],
  ['consolidated', 'consolid'],
  ['consolidating', 'consolid'],
  ['consoling', 'consol'],
  ['consolingly', 'consol'],
  ['consols', 'consol'],
  ['consonant', 'conson'],
  ['consort', 'consort'],
  ['consorted', 'consort'],
  ['consorting', 'consort'],
  ['conspicuous', 'conspicu'],
  ['conspicuously', 'conspicu'],
  ['conspiracy', 'conspiraci'],
  ['conspirator', 'conspir'],
  ['conspirators', 'conspir'],
  ['conspire', 'conspir'],
  ['conspired', 'conspir'],
  ['conspiring', 'conspir'],
  ['constable', 'constabl'],
  ['constables', 'constabl'],
  ['constance', 'constanc'],
  ['constancy', 'constanc'],
  ['constant', 'constant'],
  ['knack', 'knack'],
  ['knackeries', 'knackeri'],
  ['knacks', 'knack'],
  ['knag', 'knag'],
  ['knave', 'knave'],
  ['knaves', 'knave'],
  ['knavish', 'knavish'],
  ['kneaded', 'knead'],
  ['kneading', 'knead'],
  ['knee', 'knee'],
  ['kneel', 'kneel'],
  ['kneeled', 'kneel'],
  ['kneeling', 'kneel'],
  ['kneels', 'kneel'],
  ['knees', 'knee'],
  ['knell', 'knell'],
  ['knelt', 'knelt'],
  ['knew', 'knew'],
  ['knick', 'knick'],
  ['knif', 'knif'],
  ['knife', 'knife'],
  ['knight', 'knight'],
  ['knightly', 'knight'],
  ['knights', 'knight'],
  ['knit', 'knit'],
  ['knits', 'knit'],
  ['knitted', 'knit'],
  ['knitting', 'knit'],
  ['knives', 'knive'],
  ['knob', 'knob'],
  ['knobs', 'knob'],
  ['knock', 'knock'],
  ['knocked', 'knock'],
  ['knocker', 'knocker'],
  ['knockers', 'knocker'],
  ['knocking', 'knock'],
  ['knocks', 'knock'],
  ['knopp', 'knopp'],
  ['knot', 'knot'],
  ['knots', 'knot'],
];

/** Porter2's exceptional forms: words it must not reduce the regular way. */
const EXCEPTIONS: Array<[string, string]> = [
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
];

test('the stemmer gives the Snowball English reference output', () => {
  const wrong = [...REFERENCE, ...EXCEPTIONS]
    .filter(([word, expected]) => stem(word) !== expected)
    .map(([word, expected]) => `${word} -> ${stem(word)} (expected ${expected})`);
  assert.deepEqual(wrong, []);
});

test('"news" keeps its own stem; non-words and identifiers pass through unchanged', () => {
  assert.notEqual(stem('news'), stem('new'));
  assert.equal(stem('s3'), 's3');
  assert.equal(stem('明天'), '明天');
});
