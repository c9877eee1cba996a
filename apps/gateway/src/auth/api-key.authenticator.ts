import type { Permission, Plan } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { hashApiKey } from './api-key.secret';
import type { Principal } from './principal';

interface Cached {
  principal: Principal | null;
  expiresAt: number;
}

const MAX_CACHED = 10_000;

/**
 * Bearer key → principal. Answers are cached for `keyCacheTtlMs` (at most 5 s): that bounds how long
 * a deleted key or a plan change takes to reach every replica, without a database read per request.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, Cached>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  async authenticate(authorization: string | undefined): Promise<Principal> {
    const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!key)
      throw JsonApiException.unauthenticated('An API key is required: send Authorization: Bearer <key>.');
    if (key.length > 200) throw JsonApiException.unauthenticated('The API key is invalid or was deleted.');
    const hash = hashApiKey(key);
    const now = Date.now();
    let cached = this.cache.get(hash);
    if (!cached || cached.expiresAt <= now) {
      cached = { principal: await this.lookup(hash), expiresAt: now + this.config.keyCacheTtlMs };
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, cached);
    }
    if (!cached.principal) throw JsonApiException.unauthenticated('The API key is invalid or was deleted.');
    return cached.principal;
  }

  private async lookup(hash: string): Promise<Principal | null> {
    const rows: Array<{ id: number; workspace_id: number; permissions: Permission[]; plan: Plan }> =
      await this.dataSource.query(
        `SELECT k.id, k.workspace_id, k.permissions, w.plan
         FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
        WHERE k.key_hash = $1 AND k.deleted_at IS NULL`,
        [hash],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      apiKeyId: row.id,
      workspaceId: row.workspace_id,
      plan: row.plan,
      permissions: new Set(row.permissions),
    };
  }
}
