import type { RequestSource } from '../load/closed-loop.load';
import { runOpenLoop, type OpenLoopResult } from '../load/open-loop.load';
import type { BenchSystem, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import { latencySummary, type LatencySummary } from '../support/percentiles';

export interface LinkRedirects {
  /** Clicks asked for a second (open loop), and for how long. */
  rate: number;
  seconds: number;
  /** Distinct tracked links clicked (one per message), each resolved once before the run. */
  links: number;
  requests: number;
  /** Answered 302 to the link's URL. */
  redirected: number;
  /** Every other answer, by status (`error` for a request that got none). */
  refused: Record<string, number>;
  /** Request due → 302. */
  redirectMs: LatencySummary;
  /** The same load on the same gateway's `GET /health` just before: what any answer costs here. */
  baselineMs: LatencySummary;
  /** Clicks counted on the messages (clicks + bot_clicks) within the grace period after the run. */
  recorded: number;
  cpu: CpuUsage;
}

export interface LinkRedirectsOptions {
  rate: number;
  seconds: number;
  links: number;
}

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const TRACKED = /\/l\/([A-Za-z0-9_-]{22})/;
const READY_TIMEOUT_MS = 60_000;
/** How long after the run the clicks may take to be counted on their messages. */
const RECORD_GRACE_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Message {
  id: string;
  status: string;
  body: string | null;
  links: Array<{ clicks: number; bot_clicks: number }>;
}

/**
 * `GET /l/<token>` under an open loop (extensions §10, "a click is a redirect first and a record
 * second"): a workspace sends `links` sandbox SMS messages with one tracked link each, every token is
 * clicked once (the gateway keeps it), then clicks come at `rate` a second, spread over the tokens, each
 * timed from when it was due to its 302. Beside it, the same load on the gateway's `GET /health`. After
 * the run the messages' counts show whether every click was recorded and decided.
 */
export async function measureLinkRedirects(
  system: BenchSystem,
  options: LinkRedirectsOptions,
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<LinkRedirects> {
  if (!system.isRunning('messaging')) {
    log('starting messaging');
    await system.start('messaging');
  }
  const [tenant] = await system.tenants(1, 'business');
  const tokens = await tokensOf(system, tenant!, options.links);
  log(`${tokens.length} tracked links; clicking each once, then ${options.rate}/s for ${options.seconds} s`);
  const source = clicks(tokens);
  const warm = await runOpenLoop(system.url, source, 100, tokens.length / 100 + 0.5, 16);
  const warmClicks = warm.sent.filter((sent) => sent.status === 302).length;
  // After the two seconds in which every click is a scanner's, so the run's clicks are people's.
  await sleep(2_500);
  const health: RequestSource = { path: '/health', method: 'GET', next: () => ({ headers: {}, body: '' }) };
  const baseline = await runOpenLoop(system.url, health, options.rate, Math.min(options.seconds, 5));
  const start = meter.snapshot();
  const run = await runOpenLoop(system.url, source, options.rate, options.seconds);
  const cpu = meter.between(start, meter.snapshot());
  const redirected = run.sent.filter((sent) => sent.status === 302).length;
  const recorded = await countedClicks(system, tenant!, redirected + warmClicks);
  return {
    rate: options.rate,
    seconds: options.seconds,
    links: tokens.length,
    requests: run.sent.length + run.errors,
    redirected,
    refused: refusals(run),
    redirectMs: latencySummary(run.sent.map((sent) => sent.answeredAt - sent.dueAt)),
    baselineMs: latencySummary(baseline.sent.map((sent) => sent.answeredAt - sent.dueAt)),
    // The warm-up's clicks are counted too; the figure reports the run's.
    recorded: Math.max(0, recorded - warmClicks),
    cpu,
  };
}

/** Round robin over the tokens, as a browser asks for them. */
function clicks(tokens: string[]): RequestSource {
  let next = 0;
  return {
    path: '/l/',
    method: 'GET',
    next: () => {
      const token = tokens[next % tokens.length]!;
      next += 1;
      return { headers: { 'user-agent': BROWSER }, body: '', path: `/l/${token}` };
    },
  };
}

function refusals(run: OpenLoopResult): Record<string, number> {
  const refused: Record<string, number> = {};
  for (const sent of run.sent) {
    if (sent.status !== 302) refused[String(sent.status)] = (refused[String(sent.status)] ?? 0) + 1;
  }
  if (run.errors > 0) refused['error'] = run.errors;
  return refused;
}

/** A sandbox SMS channel and a template with a link; `count` messages; the token of each, once sent. */
async function tokensOf(system: BenchSystem, tenant: Tenant, count: number): Promise<string[]> {
  const channel = await system.api<{ data: { id: number } }>(tenant, 'POST', '/api/v1/channels', {
    type: 'sms',
    name: 'links',
    provider: 'sandbox',
  });
  const template = await system.api<{ data: { id: number } }>(tenant, 'POST', '/api/v1/templates', {
    name: 'links',
    channel: 'sms',
    body: 'Your order {{ vars.n }}: https://shop.example.com/orders/{{ vars.n }}?ref=sms',
  });
  const contact = await system.api<{ data: { id: number } }>(tenant, 'POST', '/api/v1/contacts/upsert', {
    phone: '+14155550000',
    name: 'Bench',
  });
  if (channel.status !== 201 || template.status !== 201 || contact.status >= 300) {
    throw new Error(`setup refused: ${channel.status}, ${template.status}, ${contact.status}`);
  }
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const sent = await system.api<{ data: { id: string } }>(tenant, 'POST', '/api/v1/messages', {
      contact_id: contact.body.data.id,
      route: [{ channel: 'sms', template_id: template.body.data.id }],
      variables: { n },
    });
    if (sent.status !== 202) throw new Error(`message refused: ${sent.status}`);
    ids.push(sent.body.data.id);
  }
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const page = await system.api<{ data: Message[] }>(tenant, 'GET', '/api/v1/messages?per_page=100');
    const tokens = page.body.data
      .filter((message) => ids.includes(message.id))
      .map((message) => TRACKED.exec(message.body ?? '')?.[1])
      .filter((token): token is string => token !== undefined);
    if (tokens.length === ids.length) return tokens;
    if (Date.now() > deadline) throw new Error(`only ${tokens.length} of ${ids.length} messages were sent`);
    await sleep(500);
  }
}

/** The clicks counted on the workspace's messages once they stop growing or reach `expected`. */
async function countedClicks(system: BenchSystem, tenant: Tenant, expected: number): Promise<number> {
  const deadline = Date.now() + RECORD_GRACE_MS;
  let counted = 0;
  while (Date.now() < deadline) {
    const page = await system.api<{ data: Message[] }>(tenant, 'GET', '/api/v1/messages?per_page=100');
    counted = page.body.data
      .flatMap((message) => message.links)
      .reduce((sum, link) => sum + link.clicks + link.bot_clicks, 0);
    if (counted >= expected) break;
    // The key allows 120 requests a minute: a poll a second leaves room for the setup.
    await sleep(1_000);
  }
  return counted;
}
