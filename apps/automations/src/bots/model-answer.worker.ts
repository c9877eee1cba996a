import { BOT_INPUT_TYPES, createEnvelope, deterministicId, type BotAnswerRecordedV1 } from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { PolledWorker, SAFETY_POLL_MS, type WorkerSettings } from '@cms/service-kit';

import { SOURCE } from '../config';
import type { ChatModel, ChatRequest } from './ai/chat-model';
import { BotConversationEntity, BotEntity } from './bot.entity';
import { BOT_MODEL_CALLS_SIGNAL } from './conversation-decisions';

export interface ModelAnswerWorkerOptions extends WorkerSettings {
  requestsTopic: string;
  /** Null without AI_BASE_URL: every call is answered `ai_unavailable`. */
  model: ChatModel | null;
  /** Calls in flight at once, and at most this many of one workspace. */
  concurrency: number;
  perWorkspace: number;
  /** A call's lease: longer than the model's minute of retries, so a live worker never loses one. */
  leaseMs: number;
}

/** The rows of an UPDATE or DELETE … RETURNING (the pg driver answers them with their count). */
function rowsOf<R>(result: unknown): R[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as R[];
}

interface CallRow {
  inbound_message_id: string;
  workspace_id: string;
  conversation_id: string;
}

/**
 * Asks the model for the answers AI bots owe (extensions §12, "AI mode"): it leases a call, asks the
 * model (retried with backoff for at most a minute by the ChatModel) with no transaction open, then
 * records the answer, or why there is none, in the log as automation.bot-answer.recorded and drops the
 * call, in one transaction. The conversation is moved by that record, so a rebuild never asks again.
 * At most `perWorkspace` calls of one workspace are in flight: a slow model for one workspace leaves
 * the other slots to the others.
 */
export class ModelAnswerWorker extends PolledWorker {
  private readonly inFlight = new Map<number, number>();
  private claiming: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ModelAnswerWorkerOptions) {
    super({
      concurrency: options.concurrency,
      pollMs: SAFETY_POLL_MS,
      logger: options.logger,
      wakeOn: { ...options.wakeOn, signal: BOT_MODEL_CALLS_SIGNAL },
    });
  }

  private busyWorkspaces(): string[] {
    return [...this.inFlight]
      .filter(([, count]) => count >= this.options.perWorkspace)
      .map(([id]) => String(id));
  }

  protected override async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.options.dataSource.query(
      `SELECT (extract(epoch FROM min(leased_until)) * 1000)::float8 AS at FROM bot_model_calls
       WHERE leased_until IS NOT NULL`,
    );
    return rows[0]?.at ?? undefined;
  }

  protected async turn(): Promise<boolean> {
    const call = await this.claim();
    if (call === undefined) return false;
    const workspaceId = idFromDatabase(call.workspace_id);
    try {
      await this.answer(call, workspaceId);
    } finally {
      const left = (this.inFlight.get(workspaceId) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(workspaceId);
      else this.inFlight.set(workspaceId, left);
    }
    return true;
  }

  /**
   * Leases the oldest call of a workspace with a free slot, counted in flight before the next turn
   * claims: claims are one at a time, so turns woken together cannot all take one workspace's calls.
   */
  private claim(): Promise<CallRow | undefined> {
    const claimed = this.claiming.then(async () => {
      const result: unknown = await this.options.dataSource.query(
        `UPDATE bot_model_calls SET leased_until = now() + ($2 || ' milliseconds')::interval
         WHERE inbound_message_id = (
           SELECT inbound_message_id FROM bot_model_calls
           WHERE (leased_until IS NULL OR leased_until < now()) AND NOT (workspace_id = ANY($1::bigint[]))
           ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING inbound_message_id, workspace_id, conversation_id`,
        [this.busyWorkspaces(), String(this.options.leaseMs)],
      );
      const call = rowsOf<CallRow>(result)[0];
      if (call !== undefined) {
        const workspaceId = idFromDatabase(call.workspace_id);
        this.inFlight.set(workspaceId, (this.inFlight.get(workspaceId) ?? 0) + 1);
      }
      return call;
    });
    // The next claim waits for this one, whether it leased, found nothing or failed.
    this.claiming = claimed.then(
      () => undefined,
      () => undefined,
    );
    return claimed;
  }

  private async answer(call: CallRow, workspaceId: number): Promise<void> {
    const { dataSource, model } = this.options;
    const conversationId = idFromDatabase(call.conversation_id);
    const conversation = await dataSource
      .getRepository(BotConversationEntity)
      .findOneBy({ id: conversationId, workspaceId });
    const bot =
      conversation === null
        ? null
        : await dataSource.getRepository(BotEntity).findOneBy({ id: conversation.botId });
    let data: BotAnswerRecordedV1 | null = null;
    if (conversation !== null && bot !== null && conversation.status === 'active') {
      if (model === null) {
        data = this.recorded(conversationId, call, null, 'ai_unavailable', 'AI_BASE_URL is not set');
      } else {
        const answer = await model.answer(chatRequest(bot, conversation, call.inbound_message_id));
        data = answer.ok
          ? this.recorded(conversationId, call, answer.content, null, null)
          : this.recorded(conversationId, call, null, 'ai_error', answer.error.slice(0, 1024));
        if (!answer.ok)
          this.options.logger.warn({ conversationId, error: answer.error }, 'the model gave no answer');
      }
    }
    await dataSource.transaction(async (manager) => {
      const removed = rowsOf(
        await manager.query(
          'DELETE FROM bot_model_calls WHERE inbound_message_id = $1 RETURNING inbound_message_id',
          [call.inbound_message_id],
        ),
      );
      // Another worker answered it after this one's lease ran out.
      if (removed.length === 0 || data === null) return;
      await appendToOutbox(manager, [
        envelopeRecord(
          this.options.requestsTopic,
          createEnvelope({
            id: deterministicId(call.inbound_message_id, 'model-answer'),
            type: BOT_INPUT_TYPES.answer,
            source: SOURCE,
            workspaceid: String(workspaceId),
            subject: String(conversationId),
            time: data.at,
            data,
          }),
        ),
      ]);
    });
    if (data !== null) this.options.onOutboxWritten?.();
  }

  private recorded(
    conversationId: number,
    call: CallRow,
    content: string | null,
    failure: BotAnswerRecordedV1['failure'],
    detail: string | null,
  ): BotAnswerRecordedV1 {
    return {
      conversation_id: conversationId,
      inbound_message_id: call.inbound_message_id,
      content,
      failure,
      detail,
      at: new Date().toISOString(),
    };
  }
}

/**
 * The chat the model continues: the bot's instructions, then the conversation's texts up to the inbound
 * message answered, the contact's as `user` and the bot's as `assistant`.
 */
export function chatRequest(
  bot: BotEntity,
  conversation: BotConversationEntity,
  inboundMessageId: string,
): ChatRequest {
  const until = conversation.messages.findIndex((message) => message.message_id === inboundMessageId);
  const messages = until === -1 ? conversation.messages : conversation.messages.slice(0, until + 1);
  return {
    instructions: bot.aiInstructions ?? '',
    history: messages
      .filter((message) => message.text !== null && message.text !== '')
      .map((message) => ({
        role: message.direction === 'inbound' ? ('user' as const) : ('assistant' as const),
        content: message.text!,
      })),
    temperature: bot.aiTemperature,
    maxTokens: bot.aiMaxTokens,
  };
}
