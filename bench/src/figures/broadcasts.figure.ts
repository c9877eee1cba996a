import type { Client } from 'pg';

import type { BenchSystem, ServiceName, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import { latencySummary, type LatencySummary } from '../support/percentiles';
import {
  peakRss,
  publishFlood,
  requestPartitioner,
  sandboxSmsTemplate,
  withDatabase,
} from './automations.figure';

/** The services the broadcasts phase needs besides those of the messages figures. */
export const BROADCASTS_SERVICES: ServiceName[] = ['segments', 'broadcasts'];

/** Far above every other id the bench makes, and the timers figure's flood. */
const FIRST_MEMBER_ID = 1_200_000_000;
const POLL_MS = 250;
const SAMPLE_TIMEOUT_MS = 60_000;
const AUDIENCE_TIMEOUT_MS = 1_200_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The send's progress at a moment: messages made (queued or past it) and sent, in messaging's table. */
interface Progress {
  at: number;
  made: number;
  sent: number;
}

/**
 * Issue 29's figures: one workspace's notification to an audience of `members`, from Send now until
 * every message is made (queued), the rate its messages were sent at, another workspace's transactional
 * request → message sent meanwhile beside the same with the first at rest, and the peak memory of every
 * service over the phase.
 */
export interface BroadcastFigure {
  members: number;
  /** Contacts published and the audience counting them all (set-up). */
  setUpSeconds: number;
  /** Send now → the audience's members in the log (the send's `audience_size` answered). */
  snapshotSeconds: number | null;
  /** Send now → every member's message made (`queued` or past it); null when not within `capSeconds`. */
  allQueuedSeconds: number | null;
  /** How many were made when the cap ended the figure (all of them when it did not). */
  madeAtEnd: number;
  sentAtEnd: number;
  /** Messages sent per second between the first and the last sent, or over the cap. */
  sentPerSecond: number;
  capSeconds: number;
  completedSeconds: number | null;
  /** B's request → its message sent, with A at rest and during A's send. */
  calm: LatencySummary;
  during: LatencySummary;
  duringSamples: number;
  duringMissed: number;
  /** Peak resident memory of each process over its life (VmHWM), read at the end, MiB. */
  peakRssMiB: Record<string, number>;
  cpu: CpuUsage;
}

/** B sends a transactional message; the ms until messaging has sent it (read in its table, not the API). */
async function requestToSent(
  system: BenchSystem,
  db: Client,
  b: Tenant,
  contactId: number,
  templateId: number,
): Promise<number | undefined> {
  const started = performance.now();
  const answer = await system.api<{ data: { id: string } }>(b, 'POST', '/api/v1/messages', {
    contact_id: contactId,
    route: [{ channel: 'sms', template_id: templateId }],
    variables: { code: '4711' },
  });
  if (answer.status !== 202)
    throw new Error(`B's message answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const messages = `"${system.schema('messaging')}".messages`;
  for (;;) {
    const row = await db.query<{ status: string; sent: boolean }>(
      `SELECT status, sent_at IS NOT NULL AS sent FROM ${messages} WHERE id = $1`,
      [answer.body.data.id],
    );
    const message = row.rows[0];
    if (message?.sent) break;
    // A message that ended without being sent would only time out: the set-up is wrong.
    if (message && (message.status === 'failed' || message.status === 'suppressed'))
      throw new Error(`B's message ended ${message.status}`);
    if (performance.now() - started > SAMPLE_TIMEOUT_MS) return undefined;
    await sleep(5);
  }
  return performance.now() - started;
}

async function progressOf(
  system: BenchSystem,
  db: Client,
  workspaceId: number,
  sendId: number,
): Promise<Progress> {
  const row = await db.query<{ made: string; sent: string }>(
    `SELECT count(*) AS made, count(sent_at) AS sent FROM "${system.schema('messaging')}".messages
      WHERE workspace_id = $1 AND campaign_id = $2`,
    [workspaceId, sendId],
  );
  return { at: performance.now(), made: Number(row.rows[0]!.made), sent: Number(row.rows[0]!.sent) };
}

/**
 * Workspace A's `members` contacts (consent to marketing by sms, sandbox phones) are published straight
 * into the contacts topic (the API's budget would take hours for a million); an audience of them, a
 * notification to it. Workspace B, on another partition of the requests topic, sends transactional
 * messages one after another, timed `samples` times with A at rest; then A's Send now, B timed again
 * while A's messages are made, and the figure follows A's send until every message is made or
 * `capSeconds` passed (then it is cancelled, so the phases after it find the machine quiet).
 */
export async function measureBroadcast(
  system: BenchSystem,
  options: { members: number; samples: number; capSeconds: number },
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<BroadcastFigure> {
  const partitionOf = await requestPartitioner(system);
  const [aTenant] = await system.tenants(1, 'agency');
  let bTenant: Tenant | undefined;
  for (let tries = 0; tries < 8 && bTenant === undefined; tries += 1) {
    const [candidate] = await system.tenants(1, 'business');
    if (partitionOf(candidate!.workspaceId) !== partitionOf(aTenant!.workspaceId)) bTenant = candidate;
  }
  if (!bTenant) throw new Error("no workspace on another partition of the requests topic than A's");
  const a = aTenant!;
  const b = bTenant;
  const aTemplate = await sandboxSmsTemplate(
    system,
    a,
    'Hi {{ contact.name }}, spring is here: {{ vars.code }}',
  );
  const bTemplate = await sandboxSmsTemplate(system, b, 'Your code is {{ vars.code }}');
  const bContact = await system.create<{ id: number }>(b, '/api/v1/contacts/upsert', {
    name: 'Bea',
    phone: '+14156660100',
  });

  const setUpStarted = performance.now();
  log(`publishing ${options.members} contacts of workspace ${a.workspaceId}`);
  await publishFlood(system, a.workspaceId, options.members, {
    firstId: FIRST_MEMBER_ID,
    series: 7,
    data: { list: 'spring' },
    smsConsent: true,
  });
  const audience = await system.create<{ id: number }>(a, '/api/v1/audiences', {
    name: 'Spring list',
    filter_criteria: [{ field: 'data.list', operator: 'eq', value: 'spring' }],
  });
  for (;;) {
    const answer = await system.api<{ data: { size: number } }>(a, 'GET', `/api/v1/audiences/${audience.id}`);
    if (answer.body.data.size === options.members) break;
    if (performance.now() - setUpStarted > AUDIENCE_TIMEOUT_MS)
      throw new Error(`the audience counted ${answer.body.data.size} of ${options.members} contacts`);
    await sleep(2000);
  }
  const notification = await system.create<{ id: number }>(a, '/api/v1/notifications', {
    name: 'Spring sale',
    template_id: aTemplate.id,
    target_group_id: audience.id,
    variables: { code: 'SPRING' },
  });
  const setUpSeconds = Math.round((performance.now() - setUpStarted) / 100) / 10;
  log(`set up in ${setUpSeconds} s`);

  return withDatabase(system, async (db) => {
    const calm: number[] = [];
    for (let seq = 0; seq < options.samples; seq += 1) {
      const ms = await requestToSent(system, db, b, bContact.id, bTemplate.id);
      if (ms !== undefined) calm.push(ms);
    }
    const cpuStart = meter.snapshot();
    const startedAt = performance.now();
    const accepted = await system.api<{ data: { send_id: number } }>(
      a,
      'POST',
      '/api/v1/notifications/send',
      {
        notification_id: notification.id,
      },
    );
    if (accepted.status !== 202) throw new Error(`Send now answered ${accepted.status}`);
    const sendId = accepted.body.data.send_id;
    const sends = `"${system.schema('broadcasts')}".sends`;
    const seconds = (at: number): number => Math.round((at - startedAt) / 100) / 10;
    let snapshotSeconds: number | null = null;
    let allQueuedSeconds: number | null = null;
    let completedSeconds: number | null = null;
    const samples: Progress[] = [];
    const capAt = startedAt + options.capSeconds * 1000;
    // B is timed on its own loop while A's send goes on.
    const during: number[] = [];
    let duringMissed = 0;
    let timingB = true;
    const timing = (async () => {
      while (timingB && during.length + duringMissed < options.samples * 4) {
        const ms = await requestToSent(system, db, b, bContact.id, bTemplate.id);
        if (ms === undefined) duringMissed += 1;
        else during.push(ms);
      }
    })();
    while (performance.now() < capAt && completedSeconds === null) {
      const row = await db.query<{ audience_size: number | null; status: string }>(
        `SELECT audience_size, status FROM ${sends} WHERE id = $1`,
        [sendId],
      );
      const now = performance.now();
      if (snapshotSeconds === null && row.rows[0]?.audience_size != null) snapshotSeconds = seconds(now);
      const progress = await progressOf(system, db, a.workspaceId, sendId);
      samples.push(progress);
      if (allQueuedSeconds === null && progress.made >= options.members) allQueuedSeconds = seconds(now);
      if (row.rows[0]?.status === 'completed') completedSeconds = seconds(now);
      await sleep(POLL_MS);
    }
    timingB = false;
    await timing;
    const cpu = meter.between(cpuStart, meter.snapshot());
    if (completedSeconds === null) {
      log(`cap of ${options.capSeconds} s reached: cancelling the send`);
      await system.api(a, 'POST', `/api/v1/notification-sends/${sendId}/cancel`);
    }
    const last = samples.at(-1) ?? { at: startedAt, made: 0, sent: 0 };
    const firstSent = samples.find((sample) => sample.sent > 0);
    const sentPerSecond =
      firstSent && last.at > firstSent.at
        ? Math.round(((last.sent - firstSent.sent) * 1000) / (last.at - firstSent.at))
        : 0;
    return {
      members: options.members,
      setUpSeconds,
      snapshotSeconds,
      allQueuedSeconds,
      madeAtEnd: last.made,
      sentAtEnd: last.sent,
      sentPerSecond,
      capSeconds: options.capSeconds,
      completedSeconds,
      calm: latencySummary(calm),
      during: latencySummary(during),
      duringSamples: during.length,
      duringMissed,
      peakRssMiB: peakRss(system),
      cpu,
    };
  });
}
