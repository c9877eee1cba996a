import { randomBytes } from 'node:crypto';

import { MAX_TRACKED_LINKS } from '@cms/contracts';

import { isLinkToken, linkToken, trackLinks, trimUrl, type LinkTracking } from './link-rewriting';

const tracking: LinkTracking = {
  baseUrl: 'https://go.example.test',
  secretsKey: randomBytes(32).toString('base64'),
};
const MESSAGE = 'msg_0123456789abcdef0123456789abcdef';

function tracked(index: number, messageId = MESSAGE): string {
  return `https://go.example.test/l/${linkToken(tracking.secretsKey, messageId, index)}`;
}

function text(body: string) {
  return trackLinks({ body, subject: null, html: null }, MESSAGE, tracking);
}

describe('tracked links: rewriting a rendered message', () => {
  it('keeps a URL with its query string and fragment whole', () => {
    const result = text('Pay at https://shop.example.com/pay?order=12&amount=9.50#top now');
    expect(result.body).toBe(`Pay at ${tracked(0)} now`);
    expect(result.links).toEqual([{ url: 'https://shop.example.com/pay?order=12&amount=9.50#top' }]);
  });

  it('leaves the punctuation that ends a sentence after the tracked link', () => {
    const result = text('See https://example.com/a. Or (https://example.com/b), or https://example.com/c!');
    expect(result.body).toBe(`See ${tracked(0)}. Or (${tracked(1)}), or ${tracked(2)}!`);
    expect(result.links.map((link) => link.url)).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://example.com/c',
    ]);
  });

  it('keeps a closing parenthesis the URL opened', () => {
    expect(trimUrl('https://en.wikipedia.org/wiki/Foo_(bar).')).toBe(
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    );
    expect(trimUrl('https://example.com/x?")')).toBe('https://example.com/x');
  });

  it('numbers several links from 0 in order, one per distinct URL, http and https alike', () => {
    const result = text('A http://a.example B HTTPS://b.example/p A again http://a.example');
    expect(result.body).toBe(`A ${tracked(0)} B ${tracked(1)} A again ${tracked(0)}`);
    expect(result.links).toEqual([{ url: 'http://a.example' }, { url: 'HTTPS://b.example/p' }]);
  });

  it("rewrites an email's text and its HTML hrefs, sharing links between them, and never the subject", () => {
    const result = trackLinks(
      {
        subject: 'Your order https://shop.example.com/o/1',
        body: 'Track it: https://shop.example.com/o/1?a=1&b=2',
        html:
          '<p><a href="https://shop.example.com/o/1?a=1&amp;b=2">track</a> ' +
          '<a class=x href=\'https://help.example.com\'>help</a> <a href="mailto:x@example.com">mail</a> ' +
          'https://plain.example.com in text</p>',
      },
      MESSAGE,
      tracking,
    );
    expect(result.subject).toBe('Your order https://shop.example.com/o/1');
    expect(result.body).toBe(`Track it: ${tracked(0)}`);
    expect(result.html).toBe(
      `<p><a href="${tracked(0)}">track</a> <a class=x href='${tracked(1)}'>help</a> ` +
        '<a href="mailto:x@example.com">mail</a> https://plain.example.com in text</p>',
    );
    expect(result.links).toEqual([
      { url: 'https://shop.example.com/o/1?a=1&b=2' },
      { url: 'https://help.example.com' },
    ]);
  });

  it('changes nothing in content without a URL, and answers the same objects', () => {
    const content = { body: 'Hi Ada, your code is 1234. Reply STOP to opt out.', subject: 'Hi', html: null };
    const result = trackLinks(content, MESSAGE, tracking);
    expect(result).toEqual({ ...content, links: [] });
    expect(trackLinks({ body: null, subject: null, html: null }, MESSAGE, tracking).links).toEqual([]);
  });

  it(`tracks at most ${MAX_TRACKED_LINKS} links, leaving the rest and over-long URLs as written`, () => {
    const urls = Array.from({ length: MAX_TRACKED_LINKS + 2 }, (_, i) => `https://e.example/${i}`);
    const long = `https://e.example/${'x'.repeat(2100)}`;
    const result = text(`${long} ${urls.join(' ')}`);
    expect(result.links).toHaveLength(MAX_TRACKED_LINKS);
    expect(result.body!.startsWith(`${long} ${tracked(0)} `)).toBe(true);
    expect(
      result.body!.endsWith(
        `https://e.example/${MAX_TRACKED_LINKS} https://e.example/${MAX_TRACKED_LINKS + 1}`,
      ),
    ).toBe(true);
  });

  it('makes short url-safe tokens, the same for a message and index, different for any other', () => {
    const token = linkToken(tracking.secretsKey, MESSAGE, 0);
    expect(isLinkToken(token)).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(linkToken(tracking.secretsKey, MESSAGE, 0)).toBe(token);
    expect(linkToken(tracking.secretsKey, MESSAGE, 1)).not.toBe(token);
    expect(linkToken(tracking.secretsKey, 'msg_ffffffffffffffffffffffffffffffff', 0)).not.toBe(token);
    expect(linkToken(randomBytes(32).toString('base64'), MESSAGE, 0)).not.toBe(token);
    expect(isLinkToken('short')).toBe(false);
    expect(isLinkToken(`${token.slice(0, 21)}/`)).toBe(false);
  });
});
