import type { SqlWindow } from '@cms/http';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';

import { DEFAULT_ALERT_RULE } from './alert-rule-rules';
import { AlertEntity, AlertRuleEntity } from './alert.entity';

/** Alert rules and alerts, as the rule decisions and the reads see them. */
export class AlertRuleRepository {
  private readonly rules: Repository<AlertRuleEntity>;
  private readonly alerts: Repository<AlertEntity>;

  constructor(private readonly manager: EntityManager) {
    this.rules = manager.getRepository(AlertRuleEntity);
    this.alerts = manager.getRepository(AlertEntity);
  }

  /** A workspace's first rule: the default one, and its next rule id after it. */
  async addDefaultRule(workspaceId: number, at: Date): Promise<void> {
    const inserted = (await this.manager.query(
      `INSERT INTO alert_workspaces (workspace_id, next_rule_id) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO NOTHING RETURNING workspace_id`,
      [workspaceId, DEFAULT_ALERT_RULE.id + 1],
    )) as unknown[];
    if (inserted.length === 0) return;
    await this.rules.insert({ ...DEFAULT_ALERT_RULE, scope: {}, workspaceId, createdAt: at, updatedAt: at });
  }

  /** The id the workspace's next rule gets; rule ids are never reused. */
  async nextRuleId(workspaceId: number): Promise<number> {
    const [row] = (await this.manager.query(
      `INSERT INTO alert_workspaces (workspace_id, next_rule_id) VALUES ($1, 2)
       ON CONFLICT (workspace_id) DO UPDATE SET next_rule_id = alert_workspaces.next_rule_id + 1
       RETURNING next_rule_id - 1 AS id`,
      [workspaceId],
    )) as Array<{ id: string }>;
    return Number(row!.id);
  }

  findInWorkspace(workspaceId: number, id: number): Promise<AlertRuleEntity | null> {
    return this.rules.findOneBy({ workspaceId, id });
  }

  insert(rule: AlertRuleEntity): Promise<unknown> {
    return this.rules.insert(rule);
  }

  save(rule: AlertRuleEntity): Promise<unknown> {
    return this.rules.save(rule);
  }

  async delete(workspaceId: number, id: number): Promise<void> {
    await this.rules.delete({ workspaceId, id });
  }

  /** Oldest first. */
  async list(
    workspaceId: number,
    filters: { metric?: string; enabled?: boolean },
    window: SqlWindow,
  ): Promise<{ rows: AlertRuleEntity[]; total: number }> {
    const where: FindOptionsWhere<AlertRuleEntity> = { workspaceId };
    if (filters.metric !== undefined) where.metric = filters.metric as AlertRuleEntity['metric'];
    if (filters.enabled !== undefined) where.enabled = filters.enabled;
    const [rows, total] = await this.rules.findAndCount({
      where,
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }

  firingAlertOf(workspaceId: number, ruleId: number): Promise<AlertEntity | null> {
    return this.alerts.findOneBy({ workspaceId, ruleId, status: 'firing' });
  }

  findAlert(workspaceId: number, id: string): Promise<AlertEntity | null> {
    return this.alerts.findOneBy({ workspaceId, id });
  }

  /** Newest first. */
  async listAlerts(
    workspaceId: number,
    filters: { status?: AlertEntity['status']; ruleId?: number },
    window: SqlWindow,
  ): Promise<{ rows: AlertEntity[]; total: number }> {
    const where: FindOptionsWhere<AlertEntity> = { workspaceId };
    if (filters.status !== undefined) where.status = filters.status;
    if (filters.ruleId !== undefined) where.ruleId = filters.ruleId;
    const [rows, total] = await this.alerts.findAndCount({
      where,
      order: { startedAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
