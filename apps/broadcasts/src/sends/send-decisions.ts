import {
  BROADCASTS_FACT_TYPES,
  notificationRoute,
  SEGMENTS_REQUEST_TYPES,
  type AudienceSnapshotRequestedV1,
  type NotificationSendActionRequestedV1,
  type NotificationSendMadeV1,
  type NotificationSendRequestedV1,
  type NotificationSendSnapshotRecordedV1,
  type NotificationSendStatus,
} from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { FANOUT_SIGNAL, type BroadcastsDecision } from '../decisions/broadcasts-decision';
import { BroadcastsException } from '../decisions/broadcasts.exception';
import type { NotificationEntity } from '../notifications/notification.entity';
import { NotificationRepository } from '../notifications/notification.repository';
import { SendEntity } from './send.entity';
import { sendAccepted, sendFact, sendResource } from './send.resource';
import { FINISHED, SendStore, sendsWithCounts } from './send-store';

/** From which statuses each action may be taken (extensions §13); anything else is 409. */
const ALLOWED: Record<'pause' | 'resume' | 'cancel', ReadonlySet<NotificationSendStatus>> = {
  pause: new Set(['queued', 'preparing', 'sending']),
  resume: new Set(['paused']),
  cancel: new Set(['queued', 'preparing', 'sending', 'paused']),
};

const PAST: Record<'pause' | 'resume' | 'cancel', string> = {
  pause: 'paused',
  resume: 'resumed',
  cancel: 'cancelled',
};

/**
 * A notification's sends (extensions §13), decided in the order of the requests topic: the API's send,
 * pause, resume and cancel, a schedule's start, and the inputs the service appends itself when the
 * audience's snapshot is in the log and when every message has left `queued`.
 */
@Injectable()
export class SendDecisions {
  /** `POST /api/v1/notifications/send` and `/batch-send`. */
  async send(decision: BroadcastsDecision<NotificationSendRequestedV1>): Promise<Answer> {
    const {
      notification_id: notificationId,
      test_mode: testMode,
      test_contact_id: testContactId,
    } = decision.data;
    const notification = await new NotificationRepository(decision.manager).findInWorkspace(
      decision.workspaceId,
      notificationId,
    );
    if (!notification) throw BroadcastsException.unknownNotification(notificationId);
    if (testMode) {
      // The gateway found or made the contact; a record without it was not made by the gateway.
      if (testContactId === undefined) throw BroadcastsException.missingTestContact();
      return { status: 202, resource: sendAccepted(await this.start(decision, notification, testContactId)) };
    }
    if (!notification.enabled) throw BroadcastsException.notificationDisabled(notificationId);
    return { status: 202, resource: sendAccepted(await this.start(decision, notification, null)) };
  }

  /**
   * A new send of the notification as it is now: to its audience (the snapshot asked of segments), or,
   * with a test contact, one transactional test message to that contact.
   */
  async start(
    decision: BroadcastsDecision,
    notification: NotificationEntity,
    testContactId: number | null,
  ): Promise<SendEntity> {
    const store = new SendStore(decision.manager);
    const id = await store.nextId(decision.partition);
    const at = decision.atDate;
    const test = testContactId !== null;
    const send = Object.assign(new SendEntity(), {
      id,
      workspaceId: decision.workspaceId,
      notificationId: notification.id,
      status: test ? 'sending' : 'preparing',
      testMode: test,
      audienceId: test ? null : notification.targetGroupId,
      audienceSize: test ? 1 : null,
      deduplicated: 0,
      route: notificationRoute(
        { route: notification.route, template_id: notification.templateId },
        notification.templateChannel,
      ),
      variables: notification.variables,
      // §13: a test message is transactional (no consent check; the suppression list still applies).
      purpose: test ? 'transactional' : notification.purpose,
      throttlePerMinute: test ? null : notification.throttlePerMinute,
      startedAt: at,
      finishedAt: null,
      createdAt: at,
      updatedAt: at,
    } satisfies SendEntity);
    await store.insert(send);
    if (test) {
      await decision.manager.query(
        'INSERT INTO send_members (send_id, position, contact_id) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING',
        [id, testContactId],
      );
      await this.startFanout(decision, store, send);
    } else {
      const snapshot: AudienceSnapshotRequestedV1 = {
        snapshot_id: id,
        audience_id: notification.targetGroupId,
        channel: notification.templateChannel as AudienceSnapshotRequestedV1['channel'],
      };
      decision.request(SEGMENTS_REQUEST_TYPES.audienceSnapshot, String(id), ['snapshot', id], snapshot);
    }
    decision.fact(BROADCASTS_FACT_TYPES.sendCreated, String(id), sendFact(send, decision.at));
    return send;
  }

  async pause(decision: BroadcastsDecision<NotificationSendActionRequestedV1>): Promise<Answer> {
    return this.act(decision, 'pause', () => Promise.resolve('paused'));
  }

  async resume(decision: BroadcastsDecision<NotificationSendActionRequestedV1>): Promise<Answer> {
    return this.act(decision, 'resume', async (send) => {
      if (send.audienceSize === null) return 'preparing';
      // Its fan-out waited while paused: the worker looks again once this commits.
      if (decision.live) await decision.wake(FANOUT_SIGNAL);
      return 'sending';
    });
  }

  async cancel(decision: BroadcastsDecision<NotificationSendActionRequestedV1>): Promise<Answer> {
    return this.act(decision, 'cancel', async (send, store) => {
      if (decision.live) await store.endFanout(send.id);
      return 'cancelled';
    });
  }

  private async act(
    decision: BroadcastsDecision<NotificationSendActionRequestedV1>,
    action: 'pause' | 'resume' | 'cancel',
    next: (send: SendEntity, store: SendStore) => Promise<NotificationSendStatus>,
  ): Promise<Answer> {
    const { send_id: id } = decision.data;
    const store = new SendStore(decision.manager);
    const send = await store.findInWorkspace(decision.workspaceId, id);
    if (!send) throw BroadcastsException.sendNotFound(id);
    if (!ALLOWED[action].has(send.status))
      throw BroadcastsException.statusConflict(id, PAST[action], send.status);
    await store.setStatus(send, await next(send, store), decision.atDate);
    decision.fact(BROADCASTS_FACT_TYPES.sendStatusChanged, String(id), sendFact(send, decision.at));
    const [read] = await sendsWithCounts(decision.manager, [send]);
    return { status: 200, resource: sendResource(read!.send, read!.counts) };
  }

  /**
   * The audience's members are in send_members: the send makes its messages (unless it was paused,
   * cancelled or its notification deleted meanwhile). An audience that no longer exists fails the send;
   * one with nobody to message completes it.
   */
  async snapshotRecorded(decision: BroadcastsDecision<NotificationSendSnapshotRecordedV1>): Promise<void> {
    const { send_id: id, found, audience_size: size, deduplicated } = decision.data;
    const store = new SendStore(decision.manager);
    const send = await store.findInWorkspace(decision.workspaceId, id);
    if (!send || send.audienceSize !== null) return;
    const at = decision.atDate;
    const counted = { audienceSize: size, deduplicated };
    const before = send.status;
    let status = before;
    if (!FINISHED.has(before)) {
      if (!found) status = 'failed';
      else if (size - deduplicated === 0) status = 'completed';
      else if (send.status !== 'paused') status = 'sending';
    }
    await store.setStatus(send, status, at, counted);
    if (status !== before) {
      decision.fact(BROADCASTS_FACT_TYPES.sendStatusChanged, String(id), sendFact(send, decision.at));
    }
    if (status === 'sending' || status === 'paused') await this.startFanout(decision, store, send);
  }

  /** Every message the send makes has left `queued`: it is completed. */
  async made(decision: BroadcastsDecision<NotificationSendMadeV1>): Promise<void> {
    const { send_id: id } = decision.data;
    const store = new SendStore(decision.manager);
    const send = await store.findInWorkspace(decision.workspaceId, id);
    if (!send || (send.status !== 'sending' && send.status !== 'paused')) return;
    await store.setStatus(send, 'completed', decision.atDate);
    if (decision.live) await store.endFanout(id);
    decision.fact(BROADCASTS_FACT_TYPES.sendStatusChanged, String(id), sendFact(send, decision.at));
  }

  /** The notification was deleted: its sends not finished end `cancelled`. */
  async cancelUnfinished(decision: BroadcastsDecision, notificationId: number): Promise<void> {
    const store = new SendStore(decision.manager);
    for (const send of await store.unfinishedOfNotification(notificationId)) {
      await store.setStatus(send, 'cancelled', decision.atDate);
      if (decision.live) await store.endFanout(send.id);
      decision.fact(BROADCASTS_FACT_TYPES.sendStatusChanged, String(send.id), sendFact(send, decision.at));
    }
  }

  /** The fan-out is a job: set by the live service only (a rebuild keeps the live one's). */
  private async startFanout(decision: BroadcastsDecision, store: SendStore, send: SendEntity): Promise<void> {
    if (!decision.live) return;
    await store.startFanout(send, decision.atDate);
    await decision.wake(FANOUT_SIGNAL);
  }
}
