import { TOPICS, type TopicKey, type Topics } from '@cms/contracts';
import { ConfigResourceTypes, ConfigSource, type Admin, type ITopicConfig } from 'kafkajs';

import { TOPIC_MAX_MESSAGE_BYTES } from '../records/record-bounds';

export interface TopicSpec {
  name: string;
  partitions: number;
  config: Record<string, string>;
}

export interface TopicLayout {
  /** Fixed at creation: changing it breaks per-workspace ordering. */
  requestPartitions: number;
  factPartitions: number;
  outcomePartitions: number;
  outcomeRetentionMs: number;
  replicationFactor: number;
}

export const DEFAULT_TOPIC_LAYOUT: TopicLayout = {
  requestPartitions: 24,
  factPartitions: 24,
  outcomePartitions: 6,
  outcomeRetentionMs: 60 * 60 * 1000,
  replicationFactor: 1,
};

/**
 * Set on every topic rather than left to the broker's `message.max.bytes`, so that what the producers
 * bound their records by (record-bounds.ts) is what every topic accepts, whatever the broker's defaults.
 */
export const MAX_MESSAGE_BYTES_CONFIG = 'max.message.bytes';
const SIZE = { [MAX_MESSAGE_BYTES_CONFIG]: String(TOPIC_MAX_MESSAGE_BYTES) };

/** Forever: the log is the system of record and rebuilds every projection. */
const KEEP_FOREVER = {
  'retention.ms': '-1',
  'retention.bytes': '-1',
  'cleanup.policy': 'delete',
  ...SIZE,
};

/** The topics that are not one service's facts; every other topic of TOPICS is. */
const NOT_FACTS: ReadonlySet<TopicKey> = new Set(['requests', 'outcomes', 'deadLetters']);

export function topicSpecs(layout: Partial<TopicLayout> = {}, topics: Topics = TOPICS): TopicSpec[] {
  const l = { ...DEFAULT_TOPIC_LAYOUT, ...layout };
  // A service added to TOPICS (scripts/new-service.ts does) has its facts topic made with the others.
  const facts = (Object.keys(TOPICS) as TopicKey[])
    .filter((key) => !NOT_FACTS.has(key))
    .map((key) => topics[key]);
  return [
    { name: topics.requests, partitions: l.requestPartitions, config: KEEP_FOREVER },
    ...facts.map((name) => ({ name, partitions: l.factPartitions, config: KEEP_FOREVER })),
    { name: topics.deadLetters, partitions: 3, config: KEEP_FOREVER },
    {
      name: topics.outcomes,
      partitions: l.outcomePartitions,
      config: { 'retention.ms': String(l.outcomeRetentionMs), 'cleanup.policy': 'delete', ...SIZE },
    },
  ];
}

export interface TopicReport {
  name: string;
  status: 'created' | 'exists' | 'altered' | 'mismatch';
  partitions: number;
  problems: string[];
}

/**
 * Creates the missing topics and checks the existing ones. A topic whose partition count or
 * retention differs from its spec is reported, never changed: altering partitions would reorder
 * a workspace's records, and retention is the operator's call. `max.message.bytes` is set to the spec
 * where it differs (topics created before it was part of the spec): a size limit changes what the
 * broker accepts from now on, nothing in the log, and producers rely on it.
 */
export async function ensureTopics(
  admin: Admin,
  specs: TopicSpec[],
  replicationFactor = 1,
): Promise<TopicReport[]> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((spec) => !existing.has(spec.name));
  if (missing.length > 0) {
    const topics: ITopicConfig[] = missing.map((spec) => ({
      topic: spec.name,
      numPartitions: spec.partitions,
      replicationFactor,
      configEntries: Object.entries(spec.config).map(([name, value]) => ({ name, value })),
    }));
    try {
      await admin.createTopics({ topics, waitForLeaders: true });
    } catch (error) {
      // Created, but kafkajs' wait for their leaders gives up on the brief unknown-topic answer (below).
      if (!isUnknownTopic(error)) throw error;
    }
  }
  const altered = await alignSizeLimits(
    admin,
    specs.filter((spec) => existing.has(spec.name)),
  );
  const reports = await untilTopicsKnown(() =>
    describeTopics(admin, specs, new Set(missing.map((spec) => spec.name))),
  );
  return reports.map((report) =>
    report.status === 'exists' && altered.has(report.name) ? { ...report, status: 'altered' } : report,
  );
}

function isUnknownTopic(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'UNKNOWN_TOPIC_OR_PARTITION';
}

/**
 * A broker answers metadata of a topic it has just created from a cache that other brokers' (or its
 * own controller's) updates reach a moment later: "This server does not host this topic-partition"
 * until they do. Waits that out (a few seconds at most), and nothing else.
 */
async function untilTopicsKnown<T>(read: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    try {
      return await read();
    } catch (error) {
      if (!isUnknownTopic(error) || Date.now() + wait > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Sets `max.message.bytes` of the topics whose value differs from their spec; returns their names.
 * kafkajs speaks the AlterConfigs API, which replaces every setting of the topic: the topic's other
 * settings are sent along as they are, so that none of them falls back to the broker's default.
 */
async function alignSizeLimits(admin: Admin, specs: TopicSpec[]): Promise<Set<string>> {
  const sized = specs.filter((spec) => spec.config[MAX_MESSAGE_BYTES_CONFIG] !== undefined);
  if (sized.length === 0) return new Set();
  const current = await admin.describeConfigs({
    includeSynonyms: false,
    resources: sized.map((spec) => ({ type: ConfigResourceTypes.TOPIC, name: spec.name })),
  });
  const resources = sized.flatMap((spec) => {
    const want = spec.config[MAX_MESSAGE_BYTES_CONFIG]!;
    const entries = current.resources.find((r) => r.resourceName === spec.name)?.configEntries ?? [];
    const has = entries.find((entry) => entry.configName === MAX_MESSAGE_BYTES_CONFIG)?.configValue;
    if (has === want) return [];
    const kept = entries
      .filter(
        (entry) =>
          entry.configSource === ConfigSource.TOPIC_CONFIG && entry.configName !== MAX_MESSAGE_BYTES_CONFIG,
      )
      .map((entry) => ({ name: entry.configName, value: entry.configValue }));
    return [
      {
        type: ConfigResourceTypes.TOPIC,
        name: spec.name,
        configEntries: [...kept, { name: MAX_MESSAGE_BYTES_CONFIG, value: want }],
      },
    ];
  });
  if (resources.length > 0) await admin.alterConfigs({ validateOnly: false, resources });
  return new Set(resources.map((resource) => resource.name));
}

export async function describeTopics(
  admin: Admin,
  specs: TopicSpec[],
  created = new Set<string>(),
): Promise<TopicReport[]> {
  const existing = new Set(await admin.listTopics());
  const present = specs.filter((spec) => existing.has(spec.name));
  const metadata =
    present.length > 0
      ? await admin.fetchTopicMetadata({ topics: present.map((s) => s.name) })
      : { topics: [] };
  const configs =
    present.length > 0
      ? await admin.describeConfigs({
          includeSynonyms: false,
          resources: present.map((spec) => ({
            type: 2,
            name: spec.name,
            configNames: Object.keys(spec.config),
          })),
        })
      : { resources: [] };
  return specs.map((spec) => {
    if (!existing.has(spec.name)) {
      return { name: spec.name, status: 'mismatch', partitions: 0, problems: ['topic does not exist'] };
    }
    const problems: string[] = [];
    const partitions = metadata.topics.find((topic) => topic.name === spec.name)?.partitions.length ?? 0;
    if (partitions !== spec.partitions)
      problems.push(`has ${partitions} partitions, spec says ${spec.partitions}`);
    const entries =
      configs.resources.find((resource) => resource.resourceName === spec.name)?.configEntries ?? [];
    for (const [name, value] of Object.entries(spec.config)) {
      const actual = entries.find((entry) => entry.configName === name)?.configValue;
      if (actual === value) continue;
      // The one setting `topics create` changes on an existing topic (see ensureTopics).
      const fix = name === MAX_MESSAGE_BYTES_CONFIG ? ' (`ops topics create` sets it)' : '';
      problems.push(`${name} is ${actual ?? 'unset'}, spec says ${value}${fix}`);
    }
    const status = problems.length > 0 ? 'mismatch' : created.has(spec.name) ? 'created' : 'exists';
    return { name: spec.name, status, partitions, problems };
  });
}
