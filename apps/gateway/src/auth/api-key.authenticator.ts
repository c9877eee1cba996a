import type { Permission, Plan } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { idFromDatabase } from '@cms/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { batchedReads } from '../proxy/batched-reads';
import { hashApiKey } from './api-key.secret';
import type { Principal } from './principal';

interface Cached {
  principal: Principal | null;
  /** When the database said so; the answer is used until `keyCacheTtlMs` after it. */
  readAt: number;
}

const MAX_CACHED = 10_000;

/**
 * Bearer key → principal. An answer is used for `keyCacheTtlMs` (at most 5 s) after the database
 * gave it: that bounds how long a deleted key or a plan change takes to reach every replica, without
 * a database read per request. A key in use is read again in the background once half that time has
 * passed, so requests wait for the database only for a key not seen lately, and then share one read.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, Cached>();
  private readonly reading = new Map<string, Promise<Cached>>();
  private readonly plans = batchedReads<number, Plan | null>((ids) => this.readPlans(ids), 1_000);
  private readonly keys = batchedReads<string, Principal | null>((hashes) => this.lookupKeys(hashes), 1_000);

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
    const age = (cached: Cached | undefined): number =>
      cached ? Date.now() - cached.readAt : Number.POSITIVE_INFINITY;
    let cached = this.cache.get(hash);
    if (age(cached) >= this.config.keyCacheTtlMs) {
      cached = await this.read(hash);
    } else if (age(cached) >= this.config.keyCacheTtlMs / 2) {
      // Still good: answered now, and read again for the requests to come.
      this.read(hash).catch(() => undefined);
    }
    if (!cached!.principal) throw JsonApiException.unauthenticated('The API key is invalid or was deleted.');
    return cached!.principal;
  }

  /**
   * The workspace's plan as the database holds it now. A write is judged by it rather than by the
   * cached principal (extensions §2: every request recorded after a plan change is judged by the new
   * plan): a change answered on any replica is seen by the next write on every replica.
   */
  async currentPlan(principal: Principal): Promise<Plan> {
    return (await this.plans.load(principal.workspaceId)) ?? principal.plan;
  }

  /**
   * The plans of the workspaces asked for, in one statement: the writes of many requests share a read
   * that began after each of them asked (batchedReads), so each is still judged by the plan of now.
   */
  private async readPlans(workspaceIds: readonly number[]): Promise<Array<Plan | null>> {
    const rows: Array<{ id: string; plan: Plan }> = await this.dataSource.query(
      'SELECT id, plan FROM workspaces WHERE id = ANY ($1::bigint[])',
      [[...new Set(workspaceIds)]],
    );
    const plans = new Map(rows.map((row) => [idFromDatabase(row.id), row.plan]));
    return workspaceIds.map((id) => plans.get(id) ?? null);
  }

  /** One database read per key at a time, however many requests ask meanwhile. */
  private read(hash: string): Promise<Cached> {
    let reading = this.reading.get(hash);
    if (!reading) {
      const readAt = Date.now();
      reading = this.keys
        .load(hash)
        .then((principal) => {
          const cached = { principal, readAt };
          if (!this.cache.has(hash) && this.cache.size >= MAX_CACHED) {
            this.cache.delete(this.cache.keys().next().value!);
          }
          this.cache.set(hash, cached);
          return cached;
        })
        .finally(() => this.reading.delete(hash));
      this.reading.set(hash, reading);
    }
    return reading;
  }

  /** The keys asked for, in one statement (batchedReads): the reads of many keys in use share it. */
  private async lookupKeys(hashes: readonly string[]): Promise<Array<Principal | null>> {
    const rows: Array<{
      key_hash: string;
      id: string;
      workspace_id: string;
      permissions: Permission[];
      plan: Plan;
    }> = await this.dataSource.query(
      `SELECT k.key_hash, k.id, k.workspace_id, k.permissions, w.plan
         FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
        WHERE k.key_hash = ANY ($1::text[]) AND k.deleted_at IS NULL`,
      [[...new Set(hashes)]],
    );
    const principals = new Map(
      rows.map((row) => [
        row.key_hash,
        {
          apiKeyId: idFromDatabase(row.id),
          workspaceId: idFromDatabase(row.workspace_id),
          plan: row.plan,
          permissions: new Set(row.permissions),
        } satisfies Principal,
      ]),
    );
    return hashes.map((hash) => principals.get(hash) ?? null);
  }
}
