import { BROADCASTS_REQUEST_TYPES } from '@cms/contracts';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, type OperationDoc } from '../openapi/documented.decorator';
import { BroadcastsApi } from './broadcasts-api';

/** Pause, resume and cancel: each a request on the send, answered with it or refused from its status. */
function actionDoc(summary: string, description: string): OperationDoc {
  return {
    tag: 'Notifications',
    summary,
    description,
    answers: {
      200: { description: 'The send, as the action left it.', schema: one('NotificationSend') },
      409: { description: 'The send is in a status the action does not apply to; nothing changed.' },
    },
  };
}

/** The sends of notifications (extensions §13, Sending): decided and read by the broadcasts service. */
@Controller('api/v1/notification-sends')
export class NotificationSendsApiController {
  constructor(@Inject(BroadcastsApi) private readonly api: BroadcastsApi) {}

  @Documented({
    tag: 'Notifications',
    summary: 'Get a notification send',
    description: "With its messages' counts by how far each got; readable after its notification is deleted.",
    answers: { 200: { description: 'The send.', schema: one('NotificationSend') } },
  })
  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Notification send') sendId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `notification-sends/${sendId}`, request);
  }

  @Documented(
    actionDoc(
      'Pause a notification send',
      'From `queued`, `preparing` or `sending`: the send makes no more messages until resumed; a message already made goes its way.',
    ),
  )
  @Post(':id/pause')
  @PublicRoute(MESSAGING_RULES.create)
  pause(
    @Caller() caller: Principal,
    @PathId('id', 'Notification send') sendId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.sendPause, { send_id: sendId });
  }

  @Documented(
    actionDoc(
      'Resume a notification send',
      'From `paused`: the send goes on making messages for the members not yet messaged.',
    ),
  )
  @Post(':id/resume')
  @PublicRoute(MESSAGING_RULES.create)
  resume(
    @Caller() caller: Principal,
    @PathId('id', 'Notification send') sendId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.sendResume, { send_id: sendId });
  }

  @Documented(
    actionDoc(
      'Cancel a notification send',
      'From `queued`, `preparing`, `sending` or `paused`: the send ends `cancelled`; members not yet messaged never are, and a message already made goes its way.',
    ),
  )
  @Post(':id/cancel')
  @PublicRoute(MESSAGING_RULES.create)
  cancel(
    @Caller() caller: Principal,
    @PathId('id', 'Notification send') sendId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.sendCancel, { send_id: sendId });
  }
}
