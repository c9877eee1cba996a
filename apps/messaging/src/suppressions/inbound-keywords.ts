import type { InboundMessageKeyword } from '@cms/contracts';

import type { FieldProblem } from '../decisions/messaging.exception';

/** The opt-out keywords of extensions §9, used by a channel whose metadata names none. */
export const DEFAULT_OPT_OUT_KEYWORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
] as const;

/** The opt-in keywords of extensions §9, used by a channel whose metadata names none. */
export const DEFAULT_OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'] as const;

/** The channel metadata members this part reads. */
export const KEYWORD_LISTS = ['opt_out_keywords', 'opt_in_keywords'] as const;
export const REPLY_TEXTS = ['opt_out_reply', 'opt_in_reply'] as const;

export const MAX_KEYWORDS = 50;
export const MAX_KEYWORD_LENGTH = 64;
/** Ten SMS segments: a confirmation longer than that is not a confirmation. */
export const MAX_REPLY_LENGTH = 1600;

export type Keyword = InboundMessageKeyword;

function listOf(metadata: Record<string, unknown>, name: string, defaults: readonly string[]): string[] {
  const value = metadata[name];
  // Checked when the channel was created or changed; a list that is not one keeps the defaults.
  if (!Array.isArray(value) || !value.every((word) => typeof word === 'string')) return [...defaults];
  return value.map((word: string) => word.trim().toUpperCase());
}

/**
 * What an inbound text is (extensions §9): an opt-out or opt-in keyword when the whole text, trimmed
 * and in any case, is one of the channel's (its metadata's lists replace the defaults, each list on
 * its own); null otherwise. A word on both lists is an opt-out: the contact is never messaged by
 * mistake.
 */
export function keywordOf(text: string, metadata: Record<string, unknown>): Keyword | null {
  const word = text.trim().toUpperCase();
  if (word === '') return null;
  if (listOf(metadata, 'opt_out_keywords', DEFAULT_OPT_OUT_KEYWORDS).includes(word)) return 'opt_out';
  if (listOf(metadata, 'opt_in_keywords', DEFAULT_OPT_IN_KEYWORDS).includes(word)) return 'opt_in';
  return null;
}

/** The confirmation the channel replies to a keyword with, if its metadata sets one. */
export function replyTo(keyword: Keyword, metadata: Record<string, unknown>): string | null {
  const reply = metadata[keyword === 'opt_out' ? 'opt_out_reply' : 'opt_in_reply'];
  return typeof reply === 'string' && reply.trim() !== '' ? reply : null;
}

/**
 * The problems of the keyword members of a channel's metadata (create, or the members a PATCH sends;
 * null removes a member): each list an array of at most MAX_KEYWORDS non-blank strings of at most
 * MAX_KEYWORD_LENGTH characters, each reply a non-blank string of at most MAX_REPLY_LENGTH.
 */
export function keywordMetadataProblems(metadata: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const base = '/data/attributes/metadata';
  for (const name of KEYWORD_LISTS) {
    const value = metadata[name];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) {
      problems.push({ pointer: `${base}/${name}`, detail: `${name} must be an array of strings` });
      continue;
    }
    if (value.length > MAX_KEYWORDS) {
      problems.push({
        pointer: `${base}/${name}`,
        detail: `${name} must hold at most ${MAX_KEYWORDS} keywords`,
      });
    }
    value.forEach((word: unknown, index) => {
      const pointer = `${base}/${name}/${index}`;
      if (typeof word !== 'string') problems.push({ pointer, detail: 'a keyword must be a string' });
      else if (word.trim() === '') problems.push({ pointer, detail: 'a keyword must not be blank' });
      else if (word.trim().length > MAX_KEYWORD_LENGTH) {
        problems.push({ pointer, detail: `a keyword must be at most ${MAX_KEYWORD_LENGTH} characters` });
      }
    });
  }
  for (const name of REPLY_TEXTS) {
    const value = metadata[name];
    if (value === undefined || value === null) continue;
    const pointer = `${base}/${name}`;
    if (typeof value !== 'string') problems.push({ pointer, detail: `${name} must be a string` });
    else if (value.trim() === '') problems.push({ pointer, detail: `${name} must not be blank` });
    else if (value.length > MAX_REPLY_LENGTH) {
      problems.push({ pointer, detail: `${name} must be at most ${MAX_REPLY_LENGTH} characters` });
    }
  }
  return problems;
}
