import { randomUUID } from 'node:crypto';

import {
  LINK_REQUEST_TYPES,
  MAX_CLICK_USER_AGENT_LENGTH,
  MAX_CLICKS_PER_RECORD,
  requestEnvelope,
  type LinkClickV1,
} from '@cms/contracts';
import { BatchingProducer } from '@cms/kafka';
import { LOGGER } from '@cms/service-kit';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Message } from 'kafkajs';
import type { Logger } from 'pino';
import { Counter, Registry } from 'prom-client';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { SOURCE } from '../decisions/request-decider';
import type { ResolvedLink } from './link-resolver';
import { WindowedBound } from './windowed-bound';

/** Clicks gathered or handed to the producer and not yet acknowledged; past it a click goes unrecorded. */
export const MAX_CLICKS_IN_FLIGHT = 20_000;
/** How long a click waits for others before they are recorded together. */
const GATHER_MS = 10;

type Unrecorded = 'workspace_bound' | 'client_bound' | 'backlog' | 'produce_failed';

/**
 * Records clicks after their redirects were answered ("a redirect first and a record second"): request
 * records nobody answers, produced without waiting for the broker, keyed by the workspace as every
 * request record is, so the clicks of a message follow the attempt that made its links in one
 * partition (and a rebuild decides them in the same order).
 *
 * The clicks a workspace gets within GATHER_MS go in one record (up to MAX_CLICKS_PER_RECORD), in the
 * order they were taken: every record on the requests topic is read by every service that consumes it,
 * and at a thousand clicks a second a record each would be most of what clicks cost the system.
 *
 * What the log cannot take at once is not held for it: past a workspace's share of clicks a second
 * (its flood must not crowd the partition other workspaces share), or while too many clicks wait for
 * the broker, a click is redirected and not counted; each such click is counted in
 * `cms_link_clicks_unrecorded_total`.
 */
@Injectable()
export class ClickRecorder implements BeforeApplicationShutdown {
  private inFlight = 0;
  /** Workspace id → its clicks not yet produced, in the order they were taken. */
  private gathered = new Map<number, LinkClickV1[]>();
  private timer: NodeJS.Timeout | undefined;
  private readonly perWorkspace: WindowedBound;
  private readonly unrecorded: Counter<'reason'>;
  private lastWarning = 0;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(BatchingProducer) private readonly producer: BatchingProducer,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Registry) registry: Registry,
  ) {
    this.perWorkspace = new WindowedBound(config.links.recordsPerWorkspace, 1);
    this.unrecorded = new Counter({
      name: 'cms_link_clicks_unrecorded_total',
      help: 'Clicks of tracked links redirected but not recorded, by reason.',
      labelNames: ['reason'] as const,
      registers: [registry],
    });
  }

  /** Takes the click and returns at once; a failure is counted and logged, never thrown. */
  record(link: ResolvedLink, userAgent: string, clickedAt: Date): void {
    if (!this.perWorkspace.take(String(link.workspaceId)).allowed) return this.skip('workspace_bound');
    if (this.inFlight >= MAX_CLICKS_IN_FLIGHT) return this.skip('backlog');
    this.inFlight += 1;
    const clicks = this.gathered.get(link.workspaceId) ?? [];
    clicks.push({
      message_id: link.messageId,
      link_index: link.linkIndex,
      user_agent: userAgent.slice(0, MAX_CLICK_USER_AGENT_LENGTH),
      clicked_at: clickedAt.toISOString(),
    });
    this.gathered.set(link.workspaceId, clicks);
    this.timer ??= setTimeout(() => this.flush(), GATHER_MS);
  }

  /** A click redirected without being recorded: its client was past its bound. */
  skipClient(): void {
    this.skip('client_bound');
  }

  /** What is gathered goes to the producer before it is closed. */
  beforeApplicationShutdown(): void {
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const gathered = this.gathered;
    if (gathered.size === 0) return;
    this.gathered = new Map();
    const messages: Message[] = [];
    let count = 0;
    for (const [workspaceId, clicks] of gathered) {
      count += clicks.length;
      for (let start = 0; start < clicks.length; start += MAX_CLICKS_PER_RECORD) {
        messages.push(this.message(workspaceId, clicks.slice(start, start + MAX_CLICKS_PER_RECORD)));
      }
    }
    this.producer
      .send(this.config.topics.requests, messages)
      .then(
        () => undefined,
        (error: unknown) => this.skip('produce_failed', error, count),
      )
      .finally(() => {
        this.inFlight -= count;
      });
  }

  private message(workspaceId: number, clicks: LinkClickV1[]): Message {
    const id = randomUUID();
    const envelope = requestEnvelope(
      LINK_REQUEST_TYPES.linkClicks,
      { clicks },
      // The record's time is its first click's: a click's own time is the one it is decided with.
      {
        id,
        source: SOURCE,
        workspaceid: String(workspaceId),
        correlationid: id,
        time: clicks[0]!.clicked_at,
      },
    );
    return {
      key: envelope.workspaceid,
      value: JSON.stringify(envelope),
      headers: { ce_type: envelope.type, correlation_id: id },
    };
  }

  private skip(reason: Unrecorded, error?: unknown, count = 1): void {
    this.unrecorded.inc({ reason }, count);
    const now = Date.now();
    // One line a second at most: a flood must not become a flood of log lines.
    if (now - this.lastWarning < 1000) return;
    this.lastWarning = now;
    this.logger.warn(
      { reason, ...(error !== undefined ? { err: error } : {}) },
      'a link click was not recorded',
    );
  }
}
