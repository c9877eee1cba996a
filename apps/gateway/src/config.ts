import { topicNames, type Plan, type Topics } from '@cms/contracts';

export interface PlanLimits {
  api: boolean;
  webhooks: boolean;
  storedContacts: number;
}

export interface GatewayConfig {
  service: 'gateway';
  httpPort: number;
  databaseUrl: string;
  databaseSchema: string;
  kafkaBrokers: string[];
  topics: Topics;
  redisUrl: string;
  adminToken: string;
  outcomeTimeoutMs: number;
  /** How long an answer about a key is reused; a deleted key stops working within this (≤ 5 s). */
  keyCacheTtlMs: number;
  rateLimit: { windowSeconds: number; perKey: number; perWorkspace: number; eventsPerWorkspace: number };
  plans: Record<Plan, PlanLimits>;
  /** Internal base URLs of the services the gateway proxies reads to, by service name. */
  upstreams: Record<string, string>;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') throw new ConfigError(`${name} is required`);
  return value.trim();
}

function integer(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

/** The services the gateway proxies reads to, with the port each listens on by default. */
const UPSTREAM_PORTS = { contacts: 3001 } as const;

const DEFAULT_PLANS: Record<Plan, PlanLimits> = {
  starter: { api: false, webhooks: false, storedContacts: 1_000 },
  pro: { api: true, webhooks: false, storedContacts: 25_000 },
  business: { api: true, webhooks: true, storedContacts: 250_000 },
  agency: { api: true, webhooks: true, storedContacts: 2_500_000 },
};

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env): GatewayConfig {
  const plans = Object.fromEntries(
    Object.entries(DEFAULT_PLANS).map(([plan, limits]) => [
      plan,
      {
        ...limits,
        storedContacts: integer(env, `PLAN_${plan.toUpperCase()}_STORED_CONTACTS`, limits.storedContacts),
      },
    ]),
  ) as Record<Plan, PlanLimits>;
  const upstreams: Record<string, string> = {};
  for (const [service, port] of Object.entries(UPSTREAM_PORTS)) {
    const name = `${service.toUpperCase().replace('-', '_')}_URL`;
    const url = env[name]?.trim() || `http://127.0.0.1:${port}`;
    if (!/^https?:\/\/[^/]+/.test(url)) throw new ConfigError(`${name} must be an http(s) URL`);
    upstreams[service] = url.replace(/\/+$/, '');
  }
  const adminToken = required(env, 'ADMIN_TOKEN');
  if (adminToken.length < 16) throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  return {
    service: 'gateway',
    httpPort: integer(env, 'HTTP_PORT', 3000, 0),
    databaseUrl: required(env, 'DATABASE_URL'),
    databaseSchema: env.DATABASE_SCHEMA?.trim() || 'gateway',
    kafkaBrokers: required(env, 'KAFKA_BROKERS')
      .split(',')
      .map((broker) => broker.trim())
      .filter(Boolean),
    topics: topicNames(env.TOPIC_NAMESPACE?.trim() ?? ''),
    redisUrl: required(env, 'REDIS_URL'),
    adminToken,
    outcomeTimeoutMs: integer(env, 'OUTCOME_TIMEOUT_MS', 10_000),
    keyCacheTtlMs: Math.min(integer(env, 'KEY_CACHE_TTL_MS', 2_000, 0), 5_000),
    rateLimit: {
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60),
      perKey: 120,
      perWorkspace: 600,
      eventsPerWorkspace: 1_200,
    },
    plans,
    upstreams,
  };
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
