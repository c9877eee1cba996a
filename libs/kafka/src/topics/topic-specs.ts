import { TOPICS, type Topics } from '@cms/contracts';
import type { Admin, ITopicConfig } from 'kafkajs';

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

/** Forever: the log is the system of record and rebuilds every projection. */
const KEEP_FOREVER = { 'retention.ms': '-1', 'retention.bytes': '-1', 'cleanup.policy': 'delete' };

export function topicSpecs(layout: Partial<TopicLayout> = {}, topics: Topics = TOPICS): TopicSpec[] {
  const l = { ...DEFAULT_TOPIC_LAYOUT, ...layout };
  const facts = [
    topics.contacts,
    topics.segments,
    topics.automations,
    topics.broadcasts,
    topics.messaging,
    topics.webhooks,
    topics.gateway,
  ];
  return [
    { name: topics.requests, partitions: l.requestPartitions, config: KEEP_FOREVER },
    ...facts.map((name) => ({ name, partitions: l.factPartitions, config: KEEP_FOREVER })),
    { name: topics.deadLetters, partitions: 3, config: KEEP_FOREVER },
    {
      name: topics.outcomes,
      partitions: l.outcomePartitions,
      config: { 'retention.ms': String(l.outcomeRetentionMs), 'cleanup.policy': 'delete' },
    },
  ];
}

export interface TopicReport {
  name: string;
  status: 'created' | 'exists' | 'mismatch';
  partitions: number;
  problems: string[];
}

/**
 * Creates the missing topics and checks the existing ones. A topic whose partition count or
 * retention differs from its spec is reported, never changed: altering partitions would reorder
 * a workspace's records.
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
    await admin.createTopics({ topics, waitForLeaders: true });
  }
  return describeTopics(admin, specs, new Set(missing.map((spec) => spec.name)));
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
      if (actual !== value) problems.push(`${name} is ${actual ?? 'unset'}, spec says ${value}`);
    }
    const status = problems.length > 0 ? 'mismatch' : created.has(spec.name) ? 'created' : 'exists';
    return { name: spec.name, status, partitions, problems };
  });
}
