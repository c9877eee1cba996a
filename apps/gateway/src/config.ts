import {
  ConfigError,
  DEFAULT_PUBLIC_BASE_URL,
  EnvReader,
  serviceBaseConfig,
  upstreamsOf,
  upstreamUrlVariable,
  type Env,
} from '@cms/config';
import { PLANS, type Plan } from '@cms/contracts';
import { parseRebuildPlan } from '@cms/kafka';
import type { KitConfig } from '@cms/service-kit';

export { ConfigError };

export interface PlanLimits {
  api: boolean;
  webhooks: boolean;
  storedContacts: number;
}

export interface GatewayConfig extends KitConfig {
  service: 'gateway';
  redisUrl: string;
  adminToken: string;
  outcomeTimeoutMs: number;
  /** How long an answer about a key is reused; a deleted key stops working within this (≤ 5 s). */
  keyCacheTtlMs: number;
  rateLimit: {
    windowSeconds: number;
    perKey: number;
    perWorkspace: number;
    eventsPerWorkspace: number;
    /** POST /webhook/integration/<token>, per integration, apart from every API budget. */
    inboundPerIntegration: number;
    providerCallbacksPerUrl: number;
  };
  /** Base64 of 32 bytes: seals integration credentials and signing secrets (shared with webhook-dispatch). */
  secretsKey: string;
  /** Where clients reach the gateway, e.g. https://api.example.com; webhook URLs are absolute with it. */
  publicBaseUrl: string;
  plans: Record<Plan, PlanLimits>;
  /** Internal base URLs of the services the gateway proxies reads to, by service name. */
  upstreams: Record<string, string>;
  /** `GET /l/<token>` (extensions §10): its bounds and its cache of tokens, per gateway replica. */
  links: {
    /** Redirects a second one client address gets (averaged over 10 s); more → 429. */
    clicksPerClient: number;
    /** Clicks a second of one workspace that are recorded; more are redirected, not counted. */
    recordsPerWorkspace: number;
    /** Tokens whose links are kept in memory (a token's link never changes). */
    cacheSize: number;
  };
}

const DEFAULT_PLANS: Record<Plan, PlanLimits> = {
  starter: { api: false, webhooks: false, storedContacts: 1_000 },
  pro: { api: true, webhooks: false, storedContacts: 25_000 },
  business: { api: true, webhooks: true, storedContacts: 250_000 },
  agency: { api: true, webhooks: true, storedContacts: 2_500_000 },
};

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'gateway';

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env, options: { rebuild?: boolean } = {}): GatewayConfig {
  const reader = new EnvReader(env);
  const plans = Object.fromEntries(
    PLANS.map((plan) => [
      plan,
      {
        ...DEFAULT_PLANS[plan],
        storedContacts: reader.integer(
          `PLAN_${plan.toUpperCase()}_STORED_CONTACTS`,
          DEFAULT_PLANS[plan].storedContacts,
        ),
      },
    ]),
  ) as Record<Plan, PlanLimits>;
  // The services the catalog says the gateway proxies reads to, each on its own port by default.
  const upstreams = Object.fromEntries(
    upstreamsOf('gateway').map(({ name, httpPort }) => [
      name,
      reader.httpUrl(upstreamUrlVariable(name), `http://127.0.0.1:${httpPort}`),
    ]),
  );
  const adminToken = reader.required('ADMIN_TOKEN');
  if (adminToken.length < 16) throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  const secretsKey = reader.key32('SECRETS_KEY');
  return {
    service: 'gateway',
    ...serviceBaseConfig(reader, { httpPort: 3000, schema: DEFAULT_SCHEMA }),
    // The owner of the requests consumer's checkpoints, and its group: `ops replay gateway` knows it so.
    consumerName: 'gateway',
    redisUrl: reader.required('REDIS_URL'),
    adminToken,
    outcomeTimeoutMs: reader.integer('OUTCOME_TIMEOUT_MS', 10_000),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    keyCacheTtlMs: Math.min(reader.integer('KEY_CACHE_TTL_MS', 2_000, 0), 5_000),
    rateLimit: {
      windowSeconds: reader.integer('RATE_LIMIT_WINDOW_SECONDS', 60),
      perKey: 120,
      perWorkspace: 600,
      eventsPerWorkspace: 1_200,
      inboundPerIntegration: 1_200,
      // 1,000 a second by default: a busy channel's statuses (several per message) fit, a flood does not.
      providerCallbacksPerUrl: reader.integer('PROVIDER_CALLBACKS_PER_URL', 60_000, 1),
    },
    secretsKey,
    publicBaseUrl: reader.httpUrl('PUBLIC_BASE_URL', DEFAULT_PUBLIC_BASE_URL),
    plans,
    upstreams,
    links: {
      clicksPerClient: reader.integer('LINK_CLICKS_PER_CLIENT', 20, 1),
      recordsPerWorkspace: reader.integer('LINK_CLICK_RECORDS_PER_WORKSPACE', 1_000, 1),
      cacheSize: reader.integer('LINK_CACHE_SIZE', 100_000, 1),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
