import { PROVIDER_NAMES } from './provider';
import { ProviderAdapters } from './provider-adapters';
import { PUBLIC_PROVIDER_BASE_URLS } from './provider-base-urls';

describe('ProviderAdapters', () => {
  it('has an adapter for every provider, each naming its provider', () => {
    const adapters = new ProviderAdapters({
      baseUrls: PUBLIC_PROVIDER_BASE_URLS,
      assertPublicEndpoint: () => undefined,
    });
    for (const provider of PROVIDER_NAMES) expect(adapters.of(provider).provider).toBe(provider);
  });
});
