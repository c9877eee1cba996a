import { decryptSecret, type Plan } from '@cms/contracts';
import { idFromDatabase } from '@cms/persistence';
import { LOGGER } from '@cms/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { GATEWAY_CONFIG, type GatewayConfig } from '../../config';
import type { IntegrationConfig, FieldMapping } from '../integration.entity';
import { hashWebhookToken, WEBHOOK_TOKEN_PATTERN } from '../integration.secrets';

/** What the inbound webhook needs to know about the integration a URL names. */
export interface InboundIntegration {
  id: number;
  workspaceId: number;
  plan: Plan;
  /** Opened from its sealed form; kept only in this process's memory. */
  signingSecret: string;
  fieldMappings: readonly FieldMapping[];
}

interface Cached {
  integration: InboundIntegration;
  expiresAt: number;
}

const MAX_CACHED = 10_000;

/** The secret could not be opened: SECRETS_KEY is not the key it was sealed with. */
export class UnreadableSecretError extends Error {
  constructor(readonly integrationId: number) {
    super(`the signing secret of integration ${integrationId} cannot be opened with SECRETS_KEY`);
    this.name = 'UnreadableSecretError';
  }
}

/**
 * URL token → integration, its workspace's plan and its signing secret. Known tokens are cached for
 * `keyCacheTtlMs` like API keys, so a burst of deliveries costs one query and one decryption; unknown
 * tokens are not cached (they are random guesses or typos, and the index answers them cheaply).
 */
@Injectable()
export class InboundIntegrations {
  private readonly cache = new Map<string, Cached>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async byToken(token: string): Promise<InboundIntegration | null> {
    if (!WEBHOOK_TOKEN_PATTERN.test(token)) return null;
    const hash = hashWebhookToken(token);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.integration;
    const integration = await this.lookup(hash);
    if (!integration) {
      this.cache.delete(hash);
      return null;
    }
    if (this.config.keyCacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { integration, expiresAt: now + this.config.keyCacheTtlMs });
    }
    return integration;
  }

  private async lookup(hash: string): Promise<InboundIntegration | null> {
    const rows: Array<{
      id: string;
      workspace_id: string;
      signing_secret_sealed: string;
      config: IntegrationConfig;
      plan: Plan;
    }> = await this.dataSource.query(
      `SELECT i.id, i.workspace_id, i.signing_secret_sealed, i.config, w.plan
         FROM integrations i JOIN workspaces w ON w.id = i.workspace_id
        WHERE i.token_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    const id = idFromDatabase(row.id);
    let signingSecret: string;
    try {
      signingSecret = decryptSecret(row.signing_secret_sealed, this.config.secretsKey);
    } catch {
      this.logger.error({ integration_id: id }, 'the signing secret cannot be opened with SECRETS_KEY');
      throw new UnreadableSecretError(id);
    }
    return {
      id,
      workspaceId: idFromDatabase(row.workspace_id),
      plan: row.plan,
      signingSecret,
      fieldMappings: row.config.field_mappings ?? [],
    };
  }
}
