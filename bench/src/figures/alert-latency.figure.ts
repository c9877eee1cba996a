import type { BenchSystem, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import type { HttpsReceiver } from '../support/https.receiver';
import { latencySummary, type LatencySummary } from '../support/percentiles';
import { waitContactsProjected, type Sender } from './messages-sent.figure';

export interface AlertLatency {
  /** Workspaces, each with one burst measured on its own. */
  bursts: number;
  /** Messages per burst: the default rule's min_volume, so its last failure is the one that fires it. */
  burstSize: number;
  /** Bursts whose alert.triggered (firing, notification 1) came. */
  alerts: number;
  /** First request of the burst sent → alert.triggered received. */
  fromBurstMs: LatencySummary;
  /** Last request of the burst answered 202 → alert.triggered received. */
  fromLastAnswerMs: LatencySummary;
  cpu: CpuUsage;
}

/** The default rule every workspace starts with fires at its 20th failure (min_volume 20, rate 1 > 0.2). */
const BURST_SIZE = 20;
const HOOKS_PATH = '/alerts/';
const ALERT_TIMEOUT_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Phones the sandbox fails with invalid_recipient (extensions §9.5: the last four digits are 0001),
 * distinct within a workspace.
 */
function failingPhone(index: number): string {
  return `+1628${String(100 + index).padStart(3, '0')}0001`;
}

/** A workspace with an endpoint for alert.triggered on the receiver, a sandbox SMS channel, a template, contacts. */
async function setUp(system: BenchSystem, receiver: HttpsReceiver, tenant: Tenant): Promise<Sender> {
  await system.create(tenant, '/api/v1/webhook-endpoints', {
    url: receiver.url(`${HOOKS_PATH}${tenant.workspaceId}`),
    event_types: ['alert.triggered'],
  });
  const channel = await system.create<{ id: number }>(tenant, '/api/v1/channels', {
    type: 'sms',
    name: 'bench sandbox',
    provider: 'sandbox',
  });
  const template = await system.create<{ id: number }>(tenant, '/api/v1/templates', {
    name: 'bench alert',
    channel: 'sms',
    body: 'Hello',
  });
  const batch = await system.create<{ results: Array<{ contact?: { id: number } }> }>(
    tenant,
    '/api/v1/contacts/batch',
    {
      contacts: Array.from({ length: BURST_SIZE }, (_, index) => ({ name: 'A', phone: failingPhone(index) })),
    },
    200,
  );
  const contactIds = batch.results.flatMap((result) => (result.contact ? [result.contact.id] : []));
  if (contactIds.length !== BURST_SIZE) throw new Error(`contacts batch made ${contactIds.length} contacts`);
  return { tenant, channelId: channel.id, templateId: template.id, contactIds };
}

/**
 * Delivery monitoring's reaction time: per workspace (business plan, its default alert rule
 * `failure_rate gt 0.2`, 15 minutes, min_volume 20) a burst of 20 messages to sandbox recipients that
 * fail with invalid_recipient, sent at once; measured on this process's clock from the burst's first
 * request to the alert.triggered webhook (status firing, notification_seq 1) at the bench's HTTPS
 * receiver. The path: gateway → request record → messaging queues → send worker's attempt record →
 * messaging decides the failure and judges the rule in the same decision → the fact → webhook-dispatch.
 * Bursts run one after the other, so each is measured alone.
 */
export async function measureAlertLatency(
  system: BenchSystem,
  receiver: HttpsReceiver,
  bursts: number,
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<AlertLatency> {
  if (!system.isRunning('messaging')) {
    log('starting messaging');
    await system.start('messaging');
  }
  log(`making ${bursts} workspaces with an alert.triggered endpoint, a sandbox channel and failing contacts`);
  const tenants = await system.tenants(bursts, 'business');
  const senders = await Promise.all(tenants.map((tenant) => setUp(system, receiver, tenant)));
  await waitContactsProjected(system, senders, log);

  // Bursts go one at a time: the next alert to start is the current burst's.
  const fired: number[] = [];
  const unwatch = receiver.watch(HOOKS_PATH, (body, at) => {
    const envelope = JSON.parse(body) as { type?: string; data?: { notification_seq?: number } };
    if (envelope.type === 'alert.triggered' && envelope.data?.notification_seq === 1) fired.push(at);
  });
  const fromBurst: number[] = [];
  const fromLastAnswer: number[] = [];
  const start = meter.snapshot();
  try {
    for (const sender of senders) {
      const before = fired.length;
      const burstStart = performance.now();
      const answers = await Promise.all(
        sender.contactIds.map(async (contactId) => {
          await system.create(
            sender.tenant,
            '/api/v1/messages',
            {
              contact_id: contactId,
              route: [{ channel_id: sender.channelId, template_id: sender.templateId }],
            },
            202,
          );
          return performance.now();
        }),
      );
      const lastAnswer = Math.max(...answers);
      const deadline = Date.now() + ALERT_TIMEOUT_MS;
      while (fired.length === before && Date.now() < deadline) await sleep(5);
      const at = fired[before];
      if (at === undefined) {
        log(
          `no alert.triggered within ${ALERT_TIMEOUT_MS / 1000} s for workspace ${sender.tenant.workspaceId}`,
        );
        continue;
      }
      fromBurst.push(at - burstStart);
      fromLastAnswer.push(at - lastAnswer);
    }
  } finally {
    unwatch();
  }
  const cpu = meter.between(start, meter.snapshot());
  if (fromBurst.length === 0) throw new Error('no burst raised alert.triggered');
  return {
    bursts,
    burstSize: BURST_SIZE,
    alerts: fromBurst.length,
    fromBurstMs: latencySummary(fromBurst),
    fromLastAnswerMs: latencySummary(fromLastAnswer),
    cpu,
  };
}
