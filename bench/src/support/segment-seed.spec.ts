import {
  CONTACT_FACT_TYPES,
  CONTACTS_RECORD_TYPES,
  EVENT_FACT_TYPES,
  RecordTypeRegistry,
  TAG_FACT_TYPES,
  type ContactSnapshotV1,
  type Envelope,
  type EventRecordedV1,
} from '@cms/contracts';

import { DAY_MS, SEED_TAGS, seedTagIds, workspaceFacts, type SeedCounts } from './segment-seed';

const AT = Date.parse('2026-11-25T12:34:56.789Z');
const HOUR_MS = 3_600_000;

function facts(contacts: number): { all: Envelope[]; counts: SeedCounts } {
  const counts: SeedCounts = { tags: 0, contacts: 0, events: 0, facts: 0, bytes: 0 };
  const all = [...workspaceFacts({ workspaceId: 42, contacts, at: AT }, counts)];
  return { all, counts };
}

describe('segment seed', () => {
  const registry = new RecordTypeRegistry().register(...CONTACTS_RECORD_TYPES);

  it('publishes facts the contacts topic accepts, the tags first and each contact before its events', () => {
    const { all, counts } = facts(2_000);
    const decoded = all.map((envelope) => registry.validate(JSON.parse(JSON.stringify(envelope))));
    expect(decoded.slice(0, SEED_TAGS.length).every((fact) => fact.type === TAG_FACT_TYPES.created)).toBe(
      true,
    );
    expect(counts.tags).toBe(SEED_TAGS.length);
    expect(counts.contacts).toBe(2_000);
    // About two events a contact.
    expect(counts.events).toBeGreaterThan(3_600);
    expect(counts.events).toBeLessThan(4_400);
    const seen = new Set<number>();
    for (const fact of decoded) {
      expect(fact.workspaceid).toBe('42');
      expect(fact.source).toBe('contacts');
      if (fact.type === CONTACT_FACT_TYPES.created) seen.add((fact.data as ContactSnapshotV1).contact_id);
      if (fact.type === EVENT_FACT_TYPES.recorded) {
        expect(seen.has((fact.data as EventRecordedV1).contact_id)).toBe(true);
      }
    }
    expect(seen.size).toBe(2_000);
  });

  it('keeps every time 2 to 22 hours off a whole day before the seed, so relative filters hold still', () => {
    const { all } = facts(1_000);
    const times: number[] = [];
    for (const envelope of all) {
      if (envelope.type === CONTACT_FACT_TYPES.created) {
        times.push(Date.parse((envelope.data as ContactSnapshotV1).created_at));
      }
      if (envelope.type === EVENT_FACT_TYPES.recorded) {
        const occurred = Date.parse((envelope.data as EventRecordedV1).occurred_at);
        expect(AT - occurred).toBeLessThan(90 * DAY_MS);
        times.push(occurred);
      }
    }
    for (const time of times) {
      const offDay = (AT - time) % DAY_MS;
      expect(offDay).toBeGreaterThanOrEqual(2 * HOUR_MS);
      expect(offDay).toBeLessThanOrEqual(22 * HOUR_MS);
    }
  });

  it('draws the same workspace every time: tags of its own, custom data of each type', () => {
    const first = facts(500).all.map((envelope) => envelope.data);
    const again = facts(500).all.map((envelope) => envelope.data);
    expect(again).toEqual(first);
    const tagIds = new Set(seedTagIds());
    const snapshots = first.filter(
      (data): data is ContactSnapshotV1 =>
        typeof data === 'object' && data !== null && 'marketing_consent' in data,
    );
    for (const snapshot of snapshots) {
      expect(snapshot.tag_ids.every((id) => tagIds.has(id))).toBe(true);
      expect(typeof snapshot.data.plan).toBe('string');
      expect(typeof snapshot.data.spent).toBe('number');
      expect(snapshot.data.signup_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(snapshots.some((snapshot) => snapshot.channels.telegram !== null)).toBe(true);
    expect(snapshots.some((snapshot) => snapshot.data.city === undefined)).toBe(true);
  });
});
