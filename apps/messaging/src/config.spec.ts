import { randomBytes } from 'node:crypto';

import { ConfigError, loadConfig } from './config';

const base = {
  DATABASE_URL: 'postgres://localhost/cms',
  KAFKA_BROKERS: '127.0.0.1:9092',
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

describe('the messaging settings', () => {
  it('has the defaults of the catalog', () => {
    expect(loadConfig(base)).toMatchObject({
      httpPort: 3007,
      databaseSchema: 'messaging',
      consumerName: 'messaging',
      publicBaseUrl: 'http://127.0.0.1:3000',
      providerBaseUrls: '',
      sandboxStatusDelayMs: 100,
      allowNetworks: [],
    });
  });

  it('reads the settings given, the public address without its trailing slash', () => {
    expect(
      loadConfig({
        ...base,
        PUBLIC_BASE_URL: 'https://api.example.com/',
        PROVIDER_BASE_URLS: 'twilio=http://127.0.0.1:4010',
        SANDBOX_STATUS_DELAY_MS: '0',
        WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/8, fd00::/8',
      }),
    ).toMatchObject({
      publicBaseUrl: 'https://api.example.com',
      providerBaseUrls: 'twilio=http://127.0.0.1:4010',
      sandboxStatusDelayMs: 0,
      allowNetworks: ['10.0.0.0/8', 'fd00::/8'],
    });
  });

  it('refuses to start on a missing or short key, a bad address or a network that is not a CIDR', () => {
    expect(() => loadConfig({ ...base, SECRETS_KEY: '' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, SECRETS_KEY: randomBytes(16).toString('base64') })).toThrow(
      /SECRETS_KEY/,
    );
    expect(() => loadConfig({ ...base, PUBLIC_BASE_URL: 'ftp://x' })).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/33' })).toThrow(
      /WEBHOOK_ALLOW_NETWORKS/,
    );
    expect(() => loadConfig({ ...base, SANDBOX_STATUS_DELAY_MS: '-1' })).toThrow(/SANDBOX_STATUS_DELAY_MS/);
  });
});
