import { createHash, createHmac } from 'node:crypto';

import { LINK_TOKEN_PATTERN, MAX_TRACKED_LINKS, MAX_TRACKED_URL_LENGTH } from '@cms/contracts';

/** What tracking needs: where `/l/<token>` is served, and the key tokens are derived with. */
export interface LinkTracking {
  /** PUBLIC_BASE_URL, without a trailing slash. */
  baseUrl: string;
  /** SECRETS_KEY (base64 of 32 bytes). */
  secretsKey: string;
}

/** The rendered content of a message, before or after its links are tracked. */
export interface MessageContent {
  body: string | null;
  subject: string | null;
  html: string | null;
}

export interface TrackedContent extends MessageContent {
  /** The original URLs, `link_index` = place; empty when the content had none. */
  links: Array<{ url: string }>;
}

/** Characters of the token: 22 base64url characters are 132 bits of an HMAC, short enough for an SMS. */
const TOKEN_LENGTH = 22;

/**
 * The token of a message's link: an HMAC keyed with SECRETS_KEY over the message id and the link's
 * index. Unguessable without the key, unique per message and link (message ids are never reused), and
 * the same every time it is derived, so a rebuild from the log stores the same links.
 */
export function linkToken(secretsKey: string, messageId: string, linkIndex: number): string {
  return createHmac('sha256', Buffer.from(secretsKey, 'base64'))
    .update(`link\u0000${messageId}\u0000${linkIndex}`)
    .digest('base64url')
    .slice(0, TOKEN_LENGTH);
}

/** How a token is stored and looked up: hashed, so the table alone cannot make a working link. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as `/l/<token>` may carry one: anything else is unknown without a query. */
export function isLinkToken(value: string): boolean {
  return LINK_TOKEN_PATTERN.test(value);
}

/** A URL in text: runs to whitespace or a character that cannot be in one unescaped. */
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;
/** An href holding an http(s) URL, in double or single quotes. */
const HTML_HREF = /(\bhref\s*=\s*)(["'])(https?:\/\/[^"'\s<>]*)\2/gi;
/** The cheap test that keeps bodies without a URL off every regular expression below. */
const MAY_HOLD_URL = /https?:\/\//i;

/** Characters that end a sentence rather than a URL when they come last. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', "'", '"', '*', '_']);

/**
 * A URL found in text without what ends the sentence around it: trailing punctuation is not part of
 * it, except a closing parenthesis the URL opened (`https://en.wikipedia.org/wiki/Foo_(bar)`).
 */
export function trimUrl(candidate: string): string {
  let url = candidate;
  while (url.length > 0 && TRAILING.has(url[url.length - 1]!)) {
    const last = url[url.length - 1]!;
    if (last === ')' && count(url, '(') >= count(url, ')')) break;
    url = url.slice(0, -1);
  }
  return url;
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n += 1;
  return n;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** An href's value as the browser reads it: `&amp;` in the HTML is `&` in the URL it opens. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/**
 * Replaces every http(s) URL of the rendered body (SMS and chat text, an email's text) and every http(s)
 * href of an email's HTML with `<PUBLIC_BASE_URL>/l/<token>` (extensions §10). The subject is left as
 * it is. One link per distinct URL of the message, numbered from 0 in order of appearance (the body
 * first, then the HTML), so the text and HTML versions of an email share their links. A URL longer than
 * MAX_TRACKED_URL_LENGTH, or past the MAX_TRACKED_LINKS-th, stays as written.
 */
export function trackLinks(
  content: MessageContent,
  messageId: string,
  tracking: LinkTracking,
): TrackedContent {
  const { body, html } = content;
  const mayHold = (text: string | null): text is string => text !== null && MAY_HOLD_URL.test(text);
  if (!mayHold(body) && !mayHold(html)) return { ...content, links: [] };
  const indexes = new Map<string, number>();
  const links: Array<{ url: string }> = [];
  const tracked = (url: string): string | null => {
    if (url.length > MAX_TRACKED_URL_LENGTH) return null;
    let index = indexes.get(url);
    if (index === undefined) {
      if (links.length >= MAX_TRACKED_LINKS) return null;
      index = links.length;
      indexes.set(url, index);
      links.push({ url });
    }
    return `${tracking.baseUrl}/l/${linkToken(tracking.secretsKey, messageId, index)}`;
  };
  const trackedBody = mayHold(body)
    ? body.replace(TEXT_URL, (candidate) => {
        const url = trimUrl(candidate);
        const replacement = tracked(url);
        return replacement === null ? candidate : replacement + candidate.slice(url.length);
      })
    : body;
  const trackedHtml = mayHold(html)
    ? html.replace(HTML_HREF, (whole, prefix: string, quote: string, href: string) => {
        const replacement = tracked(decodeEntities(href));
        return replacement === null ? whole : `${prefix}${quote}${replacement}${quote}`;
      })
    : html;
  return { body: trackedBody, subject: content.subject, html: trackedHtml, links };
}
