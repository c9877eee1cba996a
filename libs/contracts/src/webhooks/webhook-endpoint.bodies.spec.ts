import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import {
  CreateWebhookEndpointBody,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  UpdateWebhookEndpointBody,
  webhookUrlProblem,
} from './webhook-endpoint.bodies';

function problems(cls: new () => object, body: object): string[] {
  return validateSync(plainToInstance(cls, body), { whitelist: true, forbidNonWhitelisted: true }).map(
    (error) => error.property,
  );
}

describe('the webhook endpoint bodies', () => {
  it('accept an https URL, an optional description and a non-empty set of the ten kinds', () => {
    expect(
      problems(CreateWebhookEndpointBody, {
        url: 'https://hooks.example.com/cms',
        description: 'CRM',
        event_types: ['message.delivered', 'consent.revoked'],
      }),
    ).toEqual([]);
  });

  it('refuse a URL that is not https, an unknown or repeated kind, and an empty set', () => {
    expect(
      problems(CreateWebhookEndpointBody, {
        url: 'http://hooks.example.com',
        event_types: ['consent.granted'],
      }),
    ).toEqual(['url']);
    expect(problems(CreateWebhookEndpointBody, { url: 'https://h.example', event_types: [] })).toEqual([
      'event_types',
    ]);
    expect(
      problems(CreateWebhookEndpointBody, { url: 'https://h.example', event_types: ['webhook.test'] }),
    ).toEqual(['event_types']);
    expect(
      problems(CreateWebhookEndpointBody, {
        url: 'https://h.example',
        event_types: ['link.clicked', 'link.clicked'],
      }),
    ).toEqual(['event_types']);
  });

  it('let an update leave anything out, clear the description with null, but not null the rest', () => {
    expect(problems(UpdateWebhookEndpointBody, {})).toEqual([]);
    expect(problems(UpdateWebhookEndpointBody, { description: null, enabled: true })).toEqual([]);
    expect(
      problems(UpdateWebhookEndpointBody, { url: null, event_types: null, enabled: null }).sort(),
    ).toEqual(['enabled', 'event_types', 'url']);
  });

  it.each([
    'https://hooks.example.com/cms?x=1#f',
    'https://localhost:8443/hooks',
    'https://127.0.0.1/hooks',
    'https://[::1]:8443/',
    'https://münchen.example/hook',
    'HTTPS://Hooks.Example.COM/',
    'https://a_b.example.com/',
  ])('take %s as a URL with a real host', (url) => {
    expect(webhookUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ['no host at all', 'https:///hook'],
    ['nothing after the scheme', 'https://'],
    ['a port and no host', 'https://:443/x'],
    ['one slash', 'https:/hooks.example.com'],
    ['no slash', 'https:hooks.example.com'],
    ['a user name', 'https://user@hooks.example.com/'],
    ['an empty user name', 'https://@hooks.example.com/'],
    ['a host hidden behind user information', 'https://hooks.example.com@evil.example/'],
    ['a password', 'https://:pw@hooks.example.com/'],
    ['a backslash read as a slash', 'https:\\\\evil.example/'],
    ['a tab the parser would drop', 'https://hooks.exam\tple.com/'],
    ['a leading space', ' https://hooks.example.com/'],
    ['a trailing newline', 'https://hooks.example.com/\n'],
    ['an empty label', 'https://hooks..example.com/'],
    ['a dot for a host', 'https://./'],
    ['a label starting with a hyphen', 'https://-hooks.example.com/'],
    ['plain http', 'http://hooks.example.com/'],
    ['another scheme', 'ftp://hooks.example.com/'],
    ['a port out of range', 'https://hooks.example.com:99999/'],
    ['too long a URL', `https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`],
  ])('refuse %s', (_what, url) => {
    expect(webhookUrlProblem(url)).toEqual(expect.any(String));
    expect(problems(CreateWebhookEndpointBody, { url, event_types: ['consent.granted'] })).toEqual(['url']);
    expect(problems(UpdateWebhookEndpointBody, { url })).toEqual(['url']);
  });

  it('bound the description', () => {
    const description = 'd'.repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH + 1);
    expect(problems(UpdateWebhookEndpointBody, { description })).toEqual(['description']);
  });
});
