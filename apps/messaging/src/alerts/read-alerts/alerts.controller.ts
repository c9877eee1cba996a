import { ALERT_ID_PATTERN, ALERT_METRICS, ALERT_STATUSES } from '@cms/contracts';
import {
  choiceFilter,
  integerFilter,
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { parseId } from '../../reads/query-params';
import { AlertRuleRepository } from '../alert-rule.repository';
import {
  alertResource,
  alertRuleResource,
  type AlertResource,
  type AlertRuleResource,
} from '../alert.resource';

/** The reads the gateway proxies for /api/v1/alert-rules and /api/v1/alerts. */
@Controller('internal/v1')
export class AlertsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  private get repository(): AlertRuleRepository {
    return new AlertRuleRepository(this.dataSource.manager);
  }

  /** Oldest first; `filter[metric]`, `filter[enabled]` (true or false). */
  @Get('alert-rules')
  async rules(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<AlertRuleResource>> {
    const page = parsePagination(query);
    onlyFilters(query, ['metric', 'enabled']);
    const metric = choiceFilter(query, 'metric', ALERT_METRICS);
    const enabled = choiceFilter(query, 'enabled', ['true', 'false']);
    const { rows, total } = await this.repository.list(
      workspaceId,
      {
        ...(metric !== undefined ? { metric } : {}),
        ...(enabled !== undefined ? { enabled: enabled === 'true' } : {}),
      },
      toSqlWindow(page),
    );
    return toListBody(rows.map(alertRuleResource), pageMeta(total, page));
  }

  @Get('alert-rules/:id')
  async rule(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: AlertRuleResource }> {
    const rule = await this.repository.findInWorkspace(workspaceId, parseId(rawId, 'Alert rule'));
    if (!rule) throw JsonApiException.notFound(`Alert rule ${rawId} was not found.`);
    return { data: alertRuleResource(rule) };
  }

  /** Newest first; `filter[status]` (firing, resolved), `filter[rule_id]`. */
  @Get('alerts')
  async alerts(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<AlertResource>> {
    const page = parsePagination(query);
    onlyFilters(query, ['status', 'rule_id']);
    const status = choiceFilter(query, 'status', ALERT_STATUSES);
    const ruleId = integerFilter(query, 'rule_id');
    const { rows, total } = await this.repository.listAlerts(
      workspaceId,
      { ...(status !== undefined ? { status } : {}), ...(ruleId !== undefined ? { ruleId } : {}) },
      toSqlWindow(page),
    );
    return toListBody(rows.map(alertResource), pageMeta(total, page));
  }

  @Get('alerts/:id')
  async alert(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: AlertResource }> {
    const alert = ALERT_ID_PATTERN.test(rawId) ? await this.repository.findAlert(workspaceId, rawId) : null;
    if (!alert) throw JsonApiException.notFound(`Alert ${rawId} was not found.`);
    return { data: alertResource(alert) };
  }
}
