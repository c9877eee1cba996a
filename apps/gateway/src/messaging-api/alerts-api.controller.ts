import { ALERT_REQUEST_TYPES, CreateAlertRuleBody, UpdateAlertRuleBody } from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathAlertId, PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/**
 * Delivery monitoring (extensions §10): alert rules, decided by the messaging service (which mints
 * their ids per workspace), and the alerts they raised.
 */
@Controller('api/v1')
export class AlertsApiController {
  constructor(@Inject(MessagingApi) private readonly api: MessagingApi) {}

  @Post('alert-rules')
  @PublicRoute(MESSAGING_RULES.create)
  create(
    @Caller() caller: Principal,
    @Body() body: CreateAlertRuleBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, ALERT_REQUEST_TYPES.alertRuleCreate, body);
  }

  @Get('alert-rules')
  @PublicRoute(MESSAGING_RULES.read)
  listRules(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'alert-rules', request);
  }

  @Get('alert-rules/:id')
  @PublicRoute(MESSAGING_RULES.read)
  getRule(
    @Caller() caller: Principal,
    @PathId('id', 'Alert rule') ruleId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `alert-rules/${ruleId}`, request);
  }

  @Patch('alert-rules/:id')
  @PublicRoute(MESSAGING_RULES.update)
  update(
    @Caller() caller: Principal,
    @PathId('id', 'Alert rule') ruleId: number,
    @Body() body: UpdateAlertRuleBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, ALERT_REQUEST_TYPES.alertRuleUpdate, { ...body, rule_id: ruleId });
  }

  @Delete('alert-rules/:id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Alert rule') ruleId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, ALERT_REQUEST_TYPES.alertRuleDelete, { rule_id: ruleId });
  }

  /** Newest first; `filter[status]`, `filter[rule_id]`. */
  @Get('alerts')
  @PublicRoute(MESSAGING_RULES.read)
  listAlerts(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'alerts', request);
  }

  @Get('alerts/:id')
  @PublicRoute(MESSAGING_RULES.read)
  getAlert(
    @Caller() caller: Principal,
    @PathAlertId('id', 'Alert') alertId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `alerts/${alertId}`, request);
  }
}
