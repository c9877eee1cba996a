import { randomBytes } from 'node:crypto';

import { MESSAGING_REQUEST_TYPES, OUTCOME_TYPES } from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import { DataSource } from 'typeorm';

import { MessagingHarness } from './support/messaging.harness';

let harness: MessagingHarness;

beforeAll(async () => {
  harness = await MessagingHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

describe('the process', () => {
  it('starts from main.ts, migrates, and answers /health, /ready and /metrics', async () => {
    // On a schema and consumer group of its own, beside the instance the other tests use.
    const started = await harness.kit.spawnService({
      schema: harness.kit.newSchema(),
      env: { CONSUMER_NAME: 'messaging-process' },
    });
    try {
      expect((await fetch(`${started.url}/health`)).status).toBe(200);
      const ready = await fetch(`${started.url}/ready`);
      expect(ready.status).toBe(200);
      expect(JSON.stringify(await ready.json())).toMatch(/contacts-consumer/);
      const metrics = await fetch(`${started.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="messaging"');
    } finally {
      await started.stop();
    }
  });

  it('refuses to start without a SECRETS_KEY of 32 bytes', async () => {
    await expect(
      harness.kit.spawnService({ schema: harness.kit.newSchema(), env: { SECRETS_KEY: 'short' } }),
    ).rejects.toThrow(/SECRETS_KEY must be 32 bytes/);
  });
});

describe('rebuilding from the log', () => {
  it('makes the same rows of every table in a new schema, as `ops replay` does', async () => {
    const ws = harness.workspace();
    const contact = harness.id();
    await harness.contacts(ws, { id: contact, name: 'Ada', phone: '+15550001' });
    await harness.publishContactFacts([
      harness.channelLink(ws, { contact_id: contact, channel: 'telegram', external_id: 't-1' }),
    ]);
    const channels = [harness.id(), harness.id(), harness.id()];
    const requests: Array<[string, object]> = [
      [
        MESSAGING_REQUEST_TYPES.channelCreate,
        {
          channel_id: channels[0],
          type: 'sms',
          provider: 'twilio',
          name: 'Twilio',
          metadata: { a: 1 },
          credentials_sealed: harness.seal({ account_sid: 'AC1', auth_token: 't0', from: '+1500' }),
        },
      ],
      [
        MESSAGING_REQUEST_TYPES.channelCreate,
        {
          channel_id: channels[1],
          type: 'sms',
          provider: 'sandbox',
          name: 'Sandbox',
          metadata: {},
          is_default: true,
        },
      ],
      [
        MESSAGING_REQUEST_TYPES.channelCreate,
        { channel_id: channels[2], type: 'browser_push', provider: 'sandbox', name: 'Push', metadata: {} },
      ],
      // Merged credentials are sealed again: a rebuild must store the same bytes.
      [
        MESSAGING_REQUEST_TYPES.channelUpdate,
        {
          channel_id: channels[0],
          credentials_sealed: harness.seal({ auth_token: 't1' }),
          metadata: { b: 2 },
        },
      ],
      [
        MESSAGING_REQUEST_TYPES.pushSubscriptionCreate,
        {
          channel_id: channels[2],
          endpoint: 'https://push.example.com/p/1',
          keys: {
            p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url'),
            auth: randomBytes(16).toString('base64url'),
          },
        },
      ],
      [MESSAGING_REQUEST_TYPES.channelDelete, { channel_id: channels[1] }],
      [
        MESSAGING_REQUEST_TYPES.templateCreate,
        { template_id: harness.id(), name: 'T', channel: 'sms', body: 'Hi {{ contact.name }}' },
      ],
    ];
    for (const [type, data] of requests) {
      expect((await harness.request(ws, type, data)).type).toBe(OUTCOME_TYPES.accepted);
    }
    const live = await harness.kit.projectionRows();
    for (const table of ['channels', 'push_subscriptions', 'templates', 'contacts']) {
      expect(live[table]!.length).toBeGreaterThan(0);
    }
    expect(await harness.kit.projectionRows(await harness.kit.rebuild())).toEqual(live);
  });

  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(harness.service.app.get(DataSource))).toEqual([]);
  });
});
