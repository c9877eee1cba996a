import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from './webhook-endpoint.bodies';

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
});
