import { SERVICE_NAMES } from '@cms/config';

import type { BenchSystem, Tenant } from '../support/bench-system';
import type { CpuMeter } from '../support/cpu-meter';

/** Where the CPU went while the whole system was at rest, in % of one core. */
export interface IdleCpu {
  /** How long the system was left alone after the warm-up before the measurement began. */
  settleSeconds: number;
  seconds: number;
  /** Every service, Kafka, Postgres and Redis: the bench itself and the rest of the machine left out. */
  totalPctOfCore: number;
  byGroupPctOfCore: Record<string, number>;
}

/** The groups of the CPU meter that are the system (SERVICE_NAMES are the others). */
const BACKBONE = ['kafka', 'postgres', 'redis'];

/**
 * The system at rest (issue 27): every service running, warmed up by a little of each kind of work (an
 * event, a contact, a message and its webhooks when a receiver is given), then left alone for
 * `settleSeconds` and measured for `seconds`: CPU time per process from /proc, as the meter counts it
 * (Kafka, Postgres and Redis are every such process of the machine: run it on a quiet one).
 */
export async function measureIdle(
  system: BenchSystem,
  tenant: Tenant,
  meter: CpuMeter,
  options: { seconds: number; settleSeconds: number },
  log: (line: string) => void,
): Promise<IdleCpu> {
  const missing = SERVICE_NAMES.filter((name) => !system.isRunning(name));
  if (missing.length > 0) {
    log(`starting ${missing.join(', ')}`);
    await system.start(...missing);
  }
  log('warming up: an event, a contact upsert, a message on a sandbox channel');
  const auth = { authorization: `Bearer ${tenant.key}` };
  const expect = (what: string, status: number, wanted: number): void => {
    if (status !== wanted) throw new Error(`warm-up: ${what} answered ${status}, not ${wanted}`);
  };
  const contact = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', auth, {
    name: 'Idle warm-up',
    phone: '+14155550123',
  });
  expect('the contact upsert', contact.status, 201);
  const event = await system.call('POST', '/api/v1/events', auth, {
    name: 'idle.warm-up',
    contact: { phone: '+14155550123' },
  });
  expect('the event', event.status, 202);
  const channel = await system.call<{ data: { id: number } }>('POST', '/api/v1/channels', auth, {
    type: 'sms',
    name: 'Idle warm-up',
    provider: 'sandbox',
  });
  expect('the channel', channel.status, 201);
  const template = await system.call<{ data: { id: number } }>('POST', '/api/v1/templates', auth, {
    name: 'idle warm-up',
    channel: 'sms',
    body: 'Hello {{ contact.name }}',
  });
  expect('the template', template.status, 201);
  // Messaging learns the contact from the contacts topic: ask until it knows it.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const message = await system.call('POST', '/api/v1/messages', auth, {
      contact_id: contact.body.data.id,
      route: [{ channel_id: channel.body.data.id, template_id: template.body.data.id }],
    });
    if (message.status === 202) break;
    if (Date.now() > deadline) throw new Error(`warm-up: the message answered ${message.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  log(`leaving the system alone for ${options.settleSeconds} s, then measuring ${options.seconds} s`);
  await new Promise((resolve) => setTimeout(resolve, options.settleSeconds * 1000));
  const start = meter.snapshot();
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
  const end = meter.snapshot();
  const used = meter.pctOfCore(start, end);
  const groups = [...SERVICE_NAMES, ...BACKBONE];
  const byGroupPctOfCore = Object.fromEntries(
    groups.map((group): [string, number] => [group, used[group] ?? 0]).sort((a, b) => b[1] - a[1]),
  );
  const totalPctOfCore =
    Math.round(Object.values(byGroupPctOfCore).reduce((sum, pct) => sum + pct, 0) * 100) / 100;
  return { settleSeconds: options.settleSeconds, seconds: options.seconds, totalPctOfCore, byGroupPctOfCore };
}
