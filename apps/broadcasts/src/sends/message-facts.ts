import {
  BROADCAST_INPUT_TYPES,
  MESSAGING_FACT_TYPES,
  MESSAGING_RECORD_TYPES,
  selectRecordTypes,
  type DecodedRecord,
  type MessageFactV1,
  type NotificationSendMadeV1,
} from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { upsertEntities } from '@cms/persistence';
import { Controller, Inject, Injectable, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { In, type EntityManager } from 'typeorm';

import { BROADCASTS_CONFIG, type BroadcastsConfig } from '../config';
import { MESSAGING_TRANSPORT } from '../transports';
import {
  addChange,
  advance,
  emptyDelta,
  queuedMessage,
  REPLACED,
  type CountsDelta,
  type MessageProgress,
} from './send-counts';
import { SendCountsEntity, SendEntity, SendMessageEntity } from './send.entity';
import { emitSendInput } from './send-inputs';

/** Every stage of a message: what moves a send's counts. */
export const MESSAGE_FACT_TYPES = [
  MESSAGING_FACT_TYPES.messageQueued,
  MESSAGING_FACT_TYPES.messageSent,
  MESSAGING_FACT_TYPES.messageDelivered,
  MESSAGING_FACT_TYPES.messageRead,
  MESSAGING_FACT_TYPES.messageFailed,
  MESSAGING_FACT_TYPES.messageSuppressed,
] as const;

const SELECTION = selectRecordTypes(MESSAGE_FACT_TYPES, MESSAGING_RECORD_TYPES);

export const MESSAGE_FACT_RECORD_TYPES = SELECTION.definitions;

/** The send a fact's message belongs to, or null for a message no send made. */
function sendOf(fact: MessageFactV1): number | null {
  if (fact.direction !== 'outbound' || fact.campaign_id === null || fact.campaign_id === undefined)
    return null;
  const id = Number(fact.campaign_id);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

function row(id: string, sendId: number, progress: MessageProgress): SendMessageEntity {
  return Object.assign(new SendMessageEntity(), { id, sendId, ...progress });
}

/**
 * Moves the counts of sends (extensions §13) by their messages' facts, a run of facts in one
 * transaction: each message's row says what it counted for before, so a fact moves the counts by the
 * difference. Once a send has made every message it will make and none is left `queued`, it appends
 * notification-send.made for the requests consumer to end the send `completed` in its order.
 */
@Injectable()
export class SendMessageFacts implements ChunkHandler {
  constructor(@Inject(BROADCASTS_CONFIG) private readonly config: BroadcastsConfig) {}

  takes(record: DecodedRecord): boolean {
    return SELECTION.takes(record);
  }

  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    const facts = records.flatMap((at) => {
      const fact = at.record.data as MessageFactV1;
      const sendId = sendOf(fact);
      return sendId === null ? [] : [{ at, fact, sendId }];
    });
    if (facts.length === 0) return;
    const ids = new Set<string>();
    for (const { fact } of facts) {
      ids.add(fact.id);
      if (fact.fallback_from) ids.add(fact.fallback_from);
    }
    const known = new Map<string, SendMessageEntity>(
      (await manager.getRepository(SendMessageEntity).findBy({ id: In([...ids]) })).map((message) => [
        message.id,
        message,
      ]),
    );
    const deltas = new Map<number, { delta: CountsDelta; latest: string; last: ChunkRecord }>();
    const changed = new Map<string, SendMessageEntity>();
    const move = (sendId: number, id: string, after: MessageProgress, at: ChunkRecord): void => {
      const before = known.get(id) ?? null;
      let entry = deltas.get(sendId);
      if (!entry) {
        entry = { delta: emptyDelta(), latest: at.record.time, last: at };
        deltas.set(sendId, entry);
      }
      addChange(entry.delta, before, after);
      if (at.record.time > entry.latest) entry.latest = at.record.time;
      entry.last = at;
      const next = row(id, sendId, after);
      known.set(id, next);
      changed.set(id, next);
    };
    for (const { at, fact, sendId } of facts) {
      const before = known.get(fact.id);
      if (fact.status === 'queued') {
        if (before) continue;
        // The route's fallback: the member's message is now this one.
        const replaced = fact.fallback_from ? known.get(fact.fallback_from) : undefined;
        if (replaced && replaced.status !== REPLACED)
          move(sendId, replaced.id, { ...replaced, status: REPLACED }, at);
        move(sendId, fact.id, queuedMessage(), at);
        continue;
      }
      move(sendId, fact.id, advance(before ?? queuedMessage(), fact.status, fact.failure?.code ?? null), at);
    }
    await upsertEntities(manager, SendMessageEntity, [...changed.values()]);
    const current = new Map(
      (await manager.getRepository(SendCountsEntity).findBy({ sendId: In([...deltas.keys()]) })).map(
        (counts) => [Number(counts.sendId), counts],
      ),
    );
    const rows = [...deltas].map(([sendId, { delta, latest }]) =>
      applied(current.get(sendId), sendId, delta, latest),
    );
    await upsertEntities(manager, SendCountsEntity, rows);
    await this.completions(manager, rows, deltas);
  }

  /** Appends notification-send.made for each send whose last message just left `queued`. */
  private async completions(
    manager: EntityManager,
    rows: SendCountsEntity[],
    deltas: Map<number, { last: ChunkRecord }>,
  ): Promise<void> {
    const drained = rows.filter((counts) => counts.queued === 0);
    if (drained.length === 0) return;
    const sends = await manager
      .getRepository(SendEntity)
      .findBy({ id: In(drained.map((counts) => counts.sendId)) });
    for (const send of sends) {
      const counts = drained.find((candidate) => Number(candidate.sendId) === Number(send.id))!;
      if (send.status !== 'sending' && send.status !== 'paused') continue;
      if (send.audienceSize === null || counts.made < send.audienceSize - send.deduplicated) continue;
      const { last } = deltas.get(Number(send.id))!;
      const data: NotificationSendMadeV1 = { send_id: Number(send.id), at: counts.updatedAt.toISOString() };
      emitSendInput(
        last.context,
        this.config.topics.requests,
        last.record,
        BROADCAST_INPUT_TYPES.made,
        data.send_id,
        'made',
        data,
      );
    }
  }
}

function applied(
  stored: SendCountsEntity | undefined,
  sendId: number,
  delta: CountsDelta,
  latest: string,
): SendCountsEntity {
  const codes: Record<string, number> = { ...(stored?.failuresByCode ?? {}) };
  for (const [code, change] of delta.codes) {
    const next = (codes[code] ?? 0) + change;
    if (next === 0) delete codes[code];
    else codes[code] = next;
  }
  const updatedAt = new Date(latest);
  return Object.assign(new SendCountsEntity(), {
    sendId,
    made: (stored?.made ?? 0) + delta.made,
    queued: (stored?.queued ?? 0) + delta.queued,
    sent: (stored?.sent ?? 0) + delta.sent,
    delivered: (stored?.delivered ?? 0) + delta.delivered,
    read: (stored?.read ?? 0) + delta.read,
    failed: (stored?.failed ?? 0) + delta.failed,
    suppressed: (stored?.suppressed ?? 0) + delta.suppressed,
    failuresByCode: codes,
    updatedAt: stored && stored.updatedAt > updatedAt ? stored.updatedAt : updatedAt,
  });
}

/** A lone message fact (a run of them goes to SendMessageFacts). */
@Controller()
export class SendMessageFactsConsumer {
  constructor(@Inject(SendMessageFacts) private readonly facts: SendMessageFacts) {}

  @EventPattern(MESSAGE_FACT_TYPES, MESSAGING_TRANSPORT)
  apply(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    return this.facts.apply([{ record, context, inSpan: (work) => work() }], context.manager);
  }
}

@Module({
  controllers: [SendMessageFactsConsumer],
  providers: [SendMessageFacts],
  exports: [SendMessageFacts],
})
export class SendMessageFactsModule {}
