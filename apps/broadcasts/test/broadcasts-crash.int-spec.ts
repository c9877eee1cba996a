import {
  BROADCASTS_REQUEST_TYPES,
  MESSAGING_REQUEST_TYPES,
  requestEnvelope,
  type MessageSendRequestedV1,
  type RequestPayloads,
} from '@cms/contracts';
import { ServiceHarness, type ServiceProcess } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';

import { BROADCASTS_SERVICE } from '../src/broadcasts.service';
import type { BroadcastsConfig } from '../src/config';
import { snapshotFacts } from './broadcast-facts';

const WORKSPACE = 1;
const MEMBERS = 12_000;

/**
 * The service killed with SIGKILL while it makes a send's messages: after the restart the fan-out
 * goes on where it was, and every member is asked for exactly once (one request envelope id per
 * member, whatever the relay published again), none missing.
 */
describe('broadcasts killed with SIGKILL during a fan-out', () => {
  let harness: ServiceHarness<BroadcastsConfig>;
  let running: ServiceProcess | undefined;

  beforeAll(async () => {
    harness = await ServiceHarness.start({
      definition: BROADCASTS_SERVICE,
      prefix: 'broadk',
      read: ['requests'],
      // Small batches, so the kill finds the fan-out under way.
      env: { KAFKA_SESSION_TIMEOUT_MS: '6000', FANOUT_BATCH: '50' },
    });
    running = await harness.spawnService();
  }, 120_000);

  afterAll(async () => {
    await running?.kill();
    await harness?.stop();
  });

  /** Request envelope ids by member (contact id) so far. */
  function requestsByMember(): Map<number, Set<string>> {
    const byMember = new Map<number, Set<string>>();
    for (const record of harness.recordsOn(harness.topics.requests)) {
      if (record.type !== MESSAGING_REQUEST_TYPES.messageSend) continue;
      const contactId = (record.data as unknown as MessageSendRequestedV1).contact_id;
      byMember.set(contactId, (byMember.get(contactId) ?? new Set()).add(record.id));
    }
    return byMember;
  }

  it('asks for every member once across the kill', async () => {
    const create = requestEnvelope(
      BROADCASTS_REQUEST_TYPES.notificationCreate,
      {
        notification_id: 1,
        definition: {
          name: 'Everyone',
          template_id: 1,
          target_group_id: 1,
          variables: {},
          route: null,
          schedule: null,
          schedule_timezone: 'UTC',
          enabled: true,
          purpose: 'marketing',
          throttle_per_minute: null,
        },
        template_name: 'promo',
        template_channel: 'sms',
        target_group_name: 'All',
      } satisfies RequestPayloads['notification.create.requested'],
      { source: 'gateway', workspaceid: String(WORKSPACE) },
    );
    const send = requestEnvelope(
      BROADCASTS_REQUEST_TYPES.notificationSend,
      { notification_id: 1, test_mode: false },
      { source: 'gateway', workspaceid: String(WORKSPACE) },
    );
    await harness.produce(create, send);
    const sendId = await eventually(
      'the send',
      async () => {
        const rows: Array<{ id: string }> = await harness.db.query('SELECT id FROM sends');
        return rows[0] ? Number(rows[0].id) : undefined;
      },
      60_000,
      20,
    );
    const members = Array.from({ length: MEMBERS }, (_, index) => 100 + index);
    await harness.publish(harness.topics.segments, snapshotFacts(WORKSPACE, sendId, 1, members));
    await eventually('some members asked for', async () => requestsByMember().size >= 500, 60_000, 5);
    await running!.kill();
    running = undefined;
    expect(requestsByMember().size).toBeLessThan(MEMBERS);

    running = await harness.spawnService();
    const asked = await eventually(
      'every member asked for',
      async () => {
        const byMember = requestsByMember();
        return byMember.size >= MEMBERS ? byMember : undefined;
      },
      120_000,
      50,
    );
    expect(asked.size).toBe(MEMBERS);
    expect([...asked.keys()].every((contactId) => contactId >= 100 && contactId < 100 + MEMBERS)).toBe(true);
    expect([...asked.values()].every((ids) => ids.size === 1)).toBe(true);
    await eventually(
      'the fan-out ended',
      async () => ((await harness.db.query('SELECT send_id FROM send_fanouts')) as unknown[]).length === 0,
      30_000,
      20,
    );
  }, 300_000);
});
