import { TEXT_CUES } from './cues.ts';

/** How the reasons of a decision name each feature: the structural ones, the cues, and words. */
const STRUCTURAL_LABELS: Record<string, string> = {
  'links-1': 'has a link',
  'links-2': 'has two links',
  'links-3': 'is a list of links',
  'mostly-links': 'is mostly links',
  money: 'quotes money amounts',
  rate: 'quotes a rate (per hour, month, link or post)',
  shouting: 'shouts in capital letters',
  exclaims: 'piles up exclamation marks',
  emoji: 'uses emoji',
  handle: 'gives a Telegram or WhatsApp contact',
  'at-handle': 'gives an @handle',
  'mail-in-text': 'gives another e-mail address',
  gibberish: 'looks like gibberish',
  test: 'is only a test',
  repeats: 'repeats the same words',
  tiny: 'is only a few words',
  short: 'is short',
  long: 'is long',
  'mail-free': 'writes from a free-mail address',
  'mail-disposable': 'writes from a throwaway address',
  'mail-company': 'writes from a company domain',
  'mail-matches-company': 'mail domain matches the company',
  'mail-sales': 'writes from a sales mailbox',
  'mail-firm': 'mail domain names a tech or marketing firm',
  'mail-odd-tld': 'unusual mail domain ending',
  'mail-digits': 'mail address full of digits',
  'title-sales': 'has a sales title',
  'title-owner': 'has an owner or manager title',
  'title-maker': 'has a developer or designer title',
  'name-caps': 'name in capitals',
  'name-link': 'a link in the name',
  'name-digits': 'digits in the name',
  'name-one-word': 'a one-word name',
  'name-odd': 'a made-up name',
  'no-spam-sign': 'no sign of spam',
  'no-vendor-sign': 'no sign of a sales pitch',
};

const CUE_LABELS: Record<string, string> = Object.fromEntries(TEXT_CUES.map((c) => [c.id, c.label]));

/** The reason a feature gives, in words (`w:backlinks` → says “backlinks”). */
export function featureLabel(key: string): string {
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  if (kind === 's:') return STRUCTURAL_LABELS[rest] ?? rest;
  if (kind === 'q:') return CUE_LABELS[rest] ?? rest;
  const shown = PLACEHOLDER_WORDS[rest] ?? `“${rest}”`;
  if (kind === 'o:') return `company or title ${shown}`;
  if (kind === 'd:') return `mail domain ${shown}`;
  if (kind === 'u:') return `links to ${shown}`;
  return `says ${shown}`;
}

const PLACEHOLDER_WORDS: Record<string, string> = {
  xurlx: 'a link',
  xmailx: 'an e-mail address',
  xhandlex: 'an @handle',
  xmoneyx: 'an amount of money',
  xnumx: 'a number',
};
