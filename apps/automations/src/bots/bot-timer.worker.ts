import { BOT_INPUT_TYPES, createEnvelope, deterministicId, type BotTimerFiredV1 } from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { TimerTableWorker, type FiredTimer, type TimerWorkerSettings } from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../config';
import { BOT_TIMERS_SIGNAL } from './conversation-decisions';

export interface BotTimerWorkerOptions extends TimerWorkerSettings {
  requestsTopic: string;
}

interface BotTimerRow {
  id: string;
  workspace_id: string;
  kind: 'expiry' | 'schedule';
  conversation_id: string | null;
  bot_id: string | null;
}

/**
 * Fires the bots' due timers (extensions §12): a conversation's expiry or a schedule bot's tick
 * becomes an automation.bot-timer.fired record for the requests topic, decided in the workspace's order.
 */
export class BotTimerWorker extends TimerTableWorker<BotTimerRow> {
  constructor(private readonly options: BotTimerWorkerOptions) {
    super(options, {
      table: 'bot_timers',
      columns: ['id', 'workspace_id', 'kind', 'conversation_id', 'bot_id'],
      signal: BOT_TIMERS_SIGNAL,
    });
  }

  protected async fired(manager: EntityManager, timers: Array<FiredTimer<BotTimerRow>>): Promise<void> {
    const time = new Date(timers[0]!.now).toISOString();
    await appendToOutbox(
      manager,
      timers.map((timer) => {
        const dueAt = new Date(timer.due_at).toISOString();
        const conversationId = idFromDatabase(timer.conversation_id);
        const botId = idFromDatabase(timer.bot_id);
        const workspaceId = idFromDatabase(timer.workspace_id);
        const data: BotTimerFiredV1 = {
          timer_id: timer.id,
          kind: timer.kind,
          ...(conversationId === null ? {} : { conversation_id: conversationId }),
          ...(botId === null ? {} : { bot_id: botId }),
          due_at: dueAt,
        };
        return envelopeRecord(
          this.options.requestsTopic,
          createEnvelope({
            // A timer armed again for the same conversation is another firing: its due time tells them apart.
            id: deterministicId(timer.id, dueAt, 'fired'),
            type: BOT_INPUT_TYPES.timer,
            source: SOURCE,
            workspaceid: String(workspaceId),
            subject: timer.id,
            time,
            data,
          }),
        );
      }),
    );
  }
}
