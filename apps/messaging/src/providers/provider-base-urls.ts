/**
 * Where the providers' APIs are. Only from the service's environment (`PROVIDER_BASE_URLS`), never
 * from a channel: a customer cannot point the service at an internal address. SMTP is not here: the
 * SMTP server is the customer's own infrastructure and comes from the channel's credentials.
 */
export interface ProviderBaseUrls {
  twilio: string;
  meta: string;
  telegram: string;
}

export const PUBLIC_PROVIDER_BASE_URLS: ProviderBaseUrls = {
  twilio: 'https://api.twilio.com',
  meta: 'https://graph.facebook.com',
  telegram: 'https://api.telegram.org',
};

function isProvider(name: string): name is keyof ProviderBaseUrls {
  return Object.hasOwn(PUBLIC_PROVIDER_BASE_URLS, name);
}

/**
 * Parses `twilio=http://127.0.0.1:4010,meta=…,telegram=…`; providers not named keep their public
 * address. Throws on an unknown provider or an address that is not http(s) with nothing after the
 * host but an optional path.
 */
export function parseProviderBaseUrls(text: string | undefined): ProviderBaseUrls {
  const urls = { ...PUBLIC_PROVIDER_BASE_URLS };
  for (const entry of (text ?? '').split(',')) {
    if (entry.trim() === '') continue;
    const separator = entry.indexOf('=');
    const name = entry.slice(0, separator).trim();
    const value = entry.slice(separator + 1).trim();
    if (separator < 0 || !isProvider(name)) {
      throw new Error(
        `PROVIDER_BASE_URLS: "${entry.trim()}" must be <provider>=<url> with a provider among ${Object.keys(urls).join(', ')}`,
      );
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`PROVIDER_BASE_URLS: ${name} has no valid URL ("${value}")`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
      throw new Error(`PROVIDER_BASE_URLS: ${name} must be an http(s) URL without query ("${value}")`);
    }
    urls[name] = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  }
  return urls;
}
