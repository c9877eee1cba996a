import type { TopicKey } from '@cms/contracts';

import { BASE_MEMORY_LIMIT_MIB } from './memory';

/**
 * The service catalog: every HTTP service of the system, once. Code that lists services reads it (ops,
 * the gateway's upstream addresses, the deploy tests), and `node -r @swc-node/register
 * scripts/generate-manifests.ts` writes from it what cannot import it: scripts/services.sh (what `npm
 * start` runs), docker-compose.yml and the Kustomize bases and overlays under deploy/k8s. A new service
 * is one entry here, then that command.
 */

/** One Kafka consumer of a service, with checkpoints of its own. */
export interface ConsumerEntry {
  /** The checkpoint owner (and, under the topic namespace, the consumer group). */
  readonly name: string;
  readonly topics: readonly TopicKey[];
}

/** A setting of the service's own, with the value its Kubernetes ConfigMap gives it. */
export interface SettingEntry {
  readonly name: string;
  readonly value: string;
  /** Written above it in the ConfigMap's env file. */
  readonly doc?: string;
}

/** Keys of the `cms-secrets` Secret a service may read, besides DATABASE_URL which every one reads. */
export const SERVICE_SECRETS = ['ADMIN_TOKEN', 'SECRETS_KEY'] as const;
export type SecretKey = (typeof SERVICE_SECRETS)[number];

/**
 * One service. Each gets a Deployment, a Service, a PodDisruptionBudget and a migration Job (`main.js
 * migrate` for the schema it owns); its `role` decides how it is sized.
 */
export interface ServiceEntry<Name extends string = string> {
  /** The app under apps/, its image `cms/<name>`, its Kubernetes objects and its checkpoints' service. */
  readonly name: Name;
  /** The port it serves HTTP on (API, /health, /ready, /metrics) unless HTTP_PORT says otherwise. */
  readonly httpPort: number;
  /** The Postgres schema it owns, unless DATABASE_SCHEMA says otherwise. */
  readonly schema: string;
  /**
   * `api`: the public edge; it keeps no state of its own, so an autoscaler sizes it on CPU. `consumer`:
   * decides requests from the log; its replicas share the request topic's partitions, counted by hand.
   */
  readonly role: 'api' | 'consumer';
  readonly consumers: readonly ConsumerEntry[];
  /**
   * Tables of the schema that are not derived from the log (jobs, operational counters), in the order
   * they can be inserted: a rebuild in place keeps them, and a blue/green switch copies them from the
   * live schema into the new one. (Free-standing sequences, such as the gateway's id sequences, are
   * carried over at every switch.)
   */
  readonly carriedTables?: readonly string[];
  /** The keys of `cms-secrets` it reads besides DATABASE_URL. */
  readonly secrets: readonly SecretKey[];
  /** Reads REDIS_URL. */
  readonly redis?: boolean;
  /** The services it proxies reads to, each at `<NAME>_URL` (see `upstreamUrlVariable`). */
  readonly upstreams?: readonly NoInfer<Name>[];
  /** Its other settings, as its Kubernetes ConfigMap sets them. */
  readonly settings?: readonly SettingEntry[];
  /** What more replicas of a consumer buy, when more than a share of the request topic's partitions. */
  readonly replicasNote?: string;
  /**
   * Its container's memory limit in the base deployment, in MiB (BASE_MEMORY_LIMIT_MIB unless it needs
   * more); `npm start` and the benchmark give it the same, and its heap is three quarters of it
   * (nodeMemoryArgs).
   */
  readonly memoryLimitMiB?: number;
}

/** The memory limit of a service's container in the base deployment, in MiB. */
export function memoryLimitOf(service: Pick<ServiceEntry, 'memoryLimitMiB'>): number {
  return service.memoryLimitMiB ?? BASE_MEMORY_LIMIT_MIB;
}

/** Names the catalog's entries by their own names, and holds each upstream to one of them. */
function catalog<const Name extends string>(
  entries: readonly ServiceEntry<Name>[],
): readonly ServiceEntry<Name>[] {
  return entries;
}

export const SERVICE_CATALOG = catalog([
  {
    name: 'gateway',
    httpPort: 3000,
    schema: 'gateway',
    role: 'api',
    consumers: [{ name: 'gateway', topics: ['requests'] }],
    secrets: ['ADMIN_TOKEN', 'SECRETS_KEY'],
    redis: true,
    upstreams: ['contacts', 'webhook-dispatch', 'messaging', 'segments', 'automations', 'broadcasts'],
    settings: [
      {
        name: 'PUBLIC_BASE_URL',
        value: '',
        doc:
          'Optional: the address clients reach the gateway at (e.g. https://api.example.com); integration ' +
          'webhook URLs are answered absolute under it, and as a path without it; a provider callback is ' +
          'checked as a call to the URL under it (Twilio signs the URL it called). Give messaging the same.',
      },
      { name: 'OUTCOME_TIMEOUT_MS', value: '10000' },
      { name: 'KEY_CACHE_TTL_MS', value: '2000' },
      { name: 'RATE_LIMIT_WINDOW_SECONDS', value: '60' },
      {
        name: 'PROVIDER_CALLBACKS_PER_URL',
        value: '60000',
        doc: "Provider callbacks a channel's callback URL takes per rate-limit window (several per message sent).",
      },
      {
        name: 'LINK_CLICKS_PER_CLIENT',
        value: '20',
        doc:
          'Tracked-link clicks a second counted per client address and replica; past it a link in memory ' +
          'still redirects, uncounted, and a lookup is 429. Raise it behind a proxy that hides addresses.',
      },
      {
        name: 'LINK_CLICK_RECORDS_PER_WORKSPACE',
        value: '1000',
        doc: "Clicks a second one workspace's tracked links record per replica (more redirect, uncounted).",
      },
      { name: 'LINK_CACHE_SIZE', value: '100000', doc: 'Tracked links each replica keeps in memory.' },
    ],
  },
  {
    name: 'contacts',
    httpPort: 3001,
    schema: 'contacts',
    role: 'consumer',
    consumers: [{ name: 'contacts', topics: ['requests'] }],
    secrets: [],
  },
  {
    name: 'webhook-dispatch',
    httpPort: 3006,
    schema: 'webhook_dispatch',
    role: 'consumer',
    consumers: [
      { name: 'webhook-dispatch', topics: ['requests'] },
      { name: 'webhook-dispatch.facts', topics: ['contacts', 'messaging', 'automations'] },
    ],
    carriedTables: ['webhook_deliveries', 'webhook_attempts', 'webhook_endpoint_failures'],
    secrets: ['SECRETS_KEY'],
    settings: [
      {
        name: 'WEBHOOK_ALLOW_NETWORKS',
        value: '',
        doc: 'Optional: CIDRs deliveries may go to although they are not public unicast addresses.',
      },
    ],
    replicasNote:
      "Replicas share the request topic's partitions (24 by default); every replica also claims due " +
      'deliveries from Postgres, so delivery throughput scales past the partition count.',
  },
  {
    name: 'messaging',
    httpPort: 3007,
    schema: 'messaging',
    role: 'consumer',
    consumers: [
      { name: 'messaging', topics: ['requests'] },
      { name: 'messaging.contacts', topics: ['contacts'] },
    ],
    carriedTables: ['messaging_send_jobs', 'messaging_timers'],
    secrets: ['SECRETS_KEY'],
    settings: [
      {
        name: 'PUBLIC_BASE_URL',
        value: '',
        doc:
          "Optional: the address providers and contacts reach the gateway at; channels' callback_url " +
          'and tracked links (<PUBLIC_BASE_URL>/l/<token>) are made under it.',
      },
      {
        name: 'PROVIDER_BASE_URLS',
        value: '',
        doc:
          "Optional: provider API base addresses (twilio=…,meta=…,telegram=…); the providers' public " +
          'addresses otherwise.',
      },
      { name: 'SANDBOX_STATUS_DELAY_MS', value: '100' },
      {
        name: 'WEBHOOK_ALLOW_NETWORKS',
        value: '',
        doc: 'Optional: CIDRs push subscription endpoints may be at although they are not public.',
      },
    ],
  },
  {
    name: 'segments',
    httpPort: 3008,
    schema: 'segments',
    role: 'consumer',
    consumers: [
      { name: 'segments', topics: ['requests'] },
      { name: 'segments.contacts', topics: ['contacts'] },
      { name: 'segments.messaging', topics: ['messaging'] },
    ],
    carriedTables: ['import_emissions', 'import_uploads', 'import_upload_rows'],
    secrets: [],
    // The previews' in-memory index of a workspace of a million contacts takes most of a 512 MiB heap.
    memoryLimitMiB: 1024,
    settings: [
      {
        name: 'SEGMENT_INDEX_MAX_CONTACTS',
        value: '5000000',
        doc:
          'Contacts the in-memory indexes of audience previews and sizes hold at most, all workspaces ' +
          'together (about 150 bytes each plus their custom fields); the least recently used workspace ' +
          'is dropped first and rebuilt from the tables when next asked.',
      },
      {
        name: 'IMPORT_CHUNKS_AHEAD',
        value: '8',
        doc:
          'Chunks of 500 rows the import jobs of one workspace have sent to the contacts service and ' +
          'not seen decided, at most, however many jobs it started. More imports faster (a chunk takes a round trip of about half a second: 8 chunks ' +
          'imported a million rows in 100 s, 12 in 90 s); fewer keeps the requests of other ' +
          'workspaces that share the partition from waiting behind an import (a neighbour upserting ' +
          'meanwhile waited p95 375 ms at 8, 483 ms at 12; docs/performance.md).',
      },
      {
        name: 'IMPORT_UPLOADS_PER_WORKSPACE',
        value: '2',
        doc: 'Uploads of one workspace taken at once, over every replica; another is answered 429.',
      },
      {
        name: 'IMPORT_UPLOADS_AT_ONCE',
        value: '4',
        doc:
          'Uploads one replica takes at once, each holding a database connection while its file ' +
          'streams in (the pool has 10): another is answered 429, so previews and the consumers ' +
          'keep theirs.',
      },
      {
        name: 'IMPORT_UPLOAD_QUOTA_BYTES',
        value: '262144000',
        doc:
          'Bytes of files one workspace may hold in uploads not expired yet (250 MiB, five files at ' +
          'the limit; an upload expires 24 hours after it was made); past it, uploads are answered ' +
          '429 until enough expire.',
      },
    ],
  },
  {
    name: 'automations',
    httpPort: 3009,
    schema: 'automations',
    role: 'consumer',
    consumers: [
      { name: 'automations', topics: ['requests'] },
      { name: 'automations.contacts', topics: ['contacts'] },
      { name: 'automations.messaging', topics: ['messaging'] },
    ],
    secrets: [],
    // Bots ask it which contacts are members of their audiences.
    upstreams: ['segments'],
    settings: [
      {
        name: 'BOT_CONVERSATION_TIMEOUT',
        value: 'PT24H',
        doc: 'A bot conversation expires this long (ISO 8601) after its last message.',
      },
      {
        name: 'AI_BASE_URL',
        value: '',
        doc: 'An OpenAI-compatible API for AI bots (with AI_API_KEY in the environment); empty: AI bots end ai_unavailable.',
      },
      { name: 'AI_MODEL', value: 'gpt-4o-mini' },
    ],
  },
  {
    name: 'broadcasts',
    httpPort: 3010,
    schema: 'broadcasts',
    role: 'consumer',
    consumers: [
      { name: 'broadcasts', topics: ['requests'] },
      { name: 'broadcasts.segments', topics: ['segments'] },
      { name: 'broadcasts.messaging', topics: ['messaging'] },
    ],
    secrets: [],
  },
]);

export type ServiceName = (typeof SERVICE_CATALOG)[number]['name'];

export const SERVICE_NAMES: readonly ServiceName[] = SERVICE_CATALOG.map((service) => service.name);

/** The catalog's entry of a service. */
export const entryOf = (name: ServiceName) => SERVICE_CATALOG.find((service) => service.name === name)!;

/** The entries of the services `name` proxies reads to. */
export function upstreamsOf(name: ServiceName): ServiceEntry<ServiceName>[] {
  return (entryOf(name).upstreams ?? []).map(entryOf);
}

/** The variable that holds an upstream's base URL: `CONTACTS_URL`, `WEBHOOK_DISPATCH_URL`. */
export function upstreamUrlVariable(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}

/**
 * Where customers and providers reach the gateway when PUBLIC_BASE_URL is not set (extensions §7): the
 * base of every absolute URL the system hands out (`webhook_url`, `callback_url`, tracked links).
 */
export const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:3000';
