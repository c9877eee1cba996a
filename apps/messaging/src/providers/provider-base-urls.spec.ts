import { parseProviderBaseUrls, PUBLIC_PROVIDER_BASE_URLS } from './provider-base-urls';

describe('PROVIDER_BASE_URLS', () => {
  it("defaults to the providers' public addresses", () => {
    expect(parseProviderBaseUrls(undefined)).toEqual(PUBLIC_PROVIDER_BASE_URLS);
    expect(parseProviderBaseUrls('')).toEqual({
      twilio: 'https://api.twilio.com',
      meta: 'https://graph.facebook.com',
      telegram: 'https://api.telegram.org',
    });
  });

  it('replaces the named providers, without a trailing slash', () => {
    expect(parseProviderBaseUrls('twilio=http://127.0.0.1:4010/, meta=http://127.0.0.1:4011/graph')).toEqual({
      twilio: 'http://127.0.0.1:4010',
      meta: 'http://127.0.0.1:4011/graph',
      telegram: 'https://api.telegram.org',
    });
  });

  it('refuses an unknown provider, a missing URL or another scheme', () => {
    expect(() => parseProviderBaseUrls('smtp=http://127.0.0.1:25')).toThrow(
      /provider among twilio, meta, telegram/,
    );
    expect(() => parseProviderBaseUrls('twilio')).toThrow(/<provider>=<url>/);
    expect(() => parseProviderBaseUrls('meta=not a url')).toThrow(/no valid URL/);
    expect(() => parseProviderBaseUrls('telegram=ftp://x')).toThrow(/http\(s\)/);
  });
});
