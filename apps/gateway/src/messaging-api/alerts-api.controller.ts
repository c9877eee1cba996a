import { ALERT_REQUEST_TYPES, CreateAlertRuleBody, UpdateAlertRuleBody } from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathAlertId, PathId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/**
 * Delivery monitoring (extensions §10): alert rules, decided by the messaging service (which mints
 * their ids per workspace), and the alerts they raised.
 */
@Controller('api/v1')
export class AlertsApiController {
  constructor(@Inject(MessagingApi) private readonly api: MessagingApi) {}

  @Documented({
    tag: 'Alert rules',
    summary: 'Create an alert rule',
    description:
      'A rule fires when its window holds at least `min_volume` messages with an outcome and the metric is beyond the threshold (`gt` strictly above, `lt` strictly below), and resolves when the metric is back within it over a whole window (or a whole window passes without traffic). `threshold` is a rate in 0–1, or a whole number for `failure_count`; a `scope.channel_id` must be a channel of the workspace (→ 422).',
    answers: { 201: { description: 'The rule.', schema: one('AlertRule') } },
  })
  @Post('alert-rules')
  @PublicRoute(MESSAGING_RULES.create)
  create(
    @Caller() caller: Principal,
    @Body() body: CreateAlertRuleBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, ALERT_REQUEST_TYPES.alertRuleCreate, body);
  }

  @Documented({
    tag: 'Alert rules',
    summary: 'List alert rules',
    description:
      'Oldest first. Every workspace starts with one rule: `failure_rate gt 0.2` over 15 minutes, `min_volume` 20.',
    list: {
      filters: {
        metric: 'failure_rate, suppression_rate, delivery_rate or failure_count.',
        enabled: '`true` or `false`.',
      },
    },
    answers: { 200: { description: 'A page of rules.', schema: page('AlertRule') } },
  })
  @Get('alert-rules')
  @PublicRoute(MESSAGING_RULES.read)
  listRules(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'alert-rules', request);
  }

  @Documented({
    tag: 'Alert rules',
    summary: 'Get an alert rule',
    answers: { 200: { description: 'The rule.', schema: one('AlertRule') } },
  })
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

  @Documented({
    tag: 'Alert rules',
    summary: 'Update an alert rule',
    description:
      'Only the fields sent change; `scope` is replaced as a whole. Changing what a firing rule watches (anything but `name`), or `enabled: false`, resolves its alert.',
    answers: { 200: { description: 'The rule as changed.', schema: one('AlertRule') } },
  })
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

  @Documented({
    tag: 'Alert rules',
    summary: 'Delete an alert rule',
    description: 'Resolves its firing alert; its alerts stay readable.',
    answers: { 204: { description: 'Deleted.' } },
  })
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
  @Documented({
    tag: 'Alerts',
    summary: 'List alerts',
    description: 'Newest first (by `started_at`).',
    list: { filters: { status: '`firing` or `resolved`.', rule_id: 'The id of the rule that raised it.' } },
    answers: { 200: { description: 'A page of alerts.', schema: page('Alert') } },
  })
  @Get('alerts')
  @PublicRoute(MESSAGING_RULES.read)
  listAlerts(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'alerts', request);
  }

  @Documented({
    tag: 'Alerts',
    summary: 'Get an alert',
    answers: { 200: { description: 'The alert.', schema: one('Alert') } },
  })
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
