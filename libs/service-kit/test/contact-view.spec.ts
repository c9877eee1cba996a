import { CONTACT_FACT_TYPES, EVENT_FACT_TYPES, TAG_FACT_TYPES, type EventRecordedV1 } from '@cms/contracts';
import type { ChunkRecord } from '@cms/kafka';
import { Column, Entity } from 'typeorm';

import { ContactView, contactViewColumns, type ContactViewRun } from '../src';
import { ContactFacts, NO_CHANNELS } from './fixtures/contact-facts';

@Entity({ name: 'plain_contacts' })
class PlainContact extends contactViewColumns() {}

@Entity({ name: 'tagged_contacts' })
class TaggedContact extends contactViewColumns('tagIds') {
  @Column({ type: 'int' })
  changes!: number;
}

const WS = 7;
const OTHER_WS = 8;

function stored(id: number, channels: Record<string, string | null> = {}): PlainContact {
  return Object.assign(new PlainContact(), {
    id,
    workspaceId: WS,
    name: 'Stored',
    phone: '+15550000',
    email: null,
    externalId: null,
    data: { plan: 'gold' },
    marketingConsent: { sms: true, email: null },
    channels: { ...NO_CHANNELS, telegram: null, messenger: null, ...channels },
    updatedAt: new Date('2025-01-01T00:00:00.000Z'),
  });
}

describe('a view of contacts (the kit piece)', () => {
  const sut = new ContactView(PlainContact);
  let facts: ContactFacts;

  beforeEach(() => {
    facts = new ContactFacts();
  });

  it('reads the snapshots and the channel links of cms.contacts.v1, and no more unless told', () => {
    expect([...sut.types].sort()).toEqual(Object.values(CONTACT_FACT_TYPES).sort());
    expect(sut.recordTypes.map((definition) => definition.type).sort()).toEqual(
      Object.values(CONTACT_FACT_TYPES).sort(),
    );
    expect(sut.takes(facts.record(WS, TAG_FACT_TYPES.created, {}).record)).toBe(false);
    expect(sut.takes(facts.link(WS, 1, 'telegram', 'x').record)).toBe(true);
  });

  it('replaces a stored row whole with a snapshot, keeping only the columns of its entity', () => {
    const [row] = sut.fold(
      [facts.snapshot(WS, { contact_id: 1, name: 'Ada', tag_ids: [3], source: 'import' })],
      [stored(1)],
    );
    expect(row).toBeInstanceOf(PlainContact);
    expect(row).toEqual(
      Object.assign(new PlainContact(), {
        id: 1,
        workspaceId: WS,
        name: 'Ada',
        phone: null,
        email: null,
        externalId: null,
        data: {},
        marketingConsent: { sms: null, email: null },
        channels: { ...NO_CHANNELS, telegram: null, messenger: null },
        updatedAt: new Date('2026-01-02T03:04:05.678Z'),
      }),
    );
  });

  it('keeps the optional columns its entity names', () => {
    const tagged = new ContactView(TaggedContact);
    const [row] = tagged.fold([facts.snapshot(WS, { contact_id: 1, tag_ids: [3, 4], source: 'import' })], []);
    expect(row).toMatchObject({ id: 1, tagIds: [3, 4] });
    expect(row).not.toHaveProperty('source');
    expect(row).not.toHaveProperty('createdAt');
  });

  it('sets a linked id on its channel, with the time of the link', () => {
    const [row] = sut.fold([facts.link(WS, 1, 'telegram', 'tg-1')], [stored(1)]);
    expect(row).toMatchObject({
      name: 'Stored',
      channels: { ...NO_CHANNELS, telegram: 'tg-1', messenger: null },
      updatedAt: new Date('2026-02-03T04:05:06.789Z'),
    });
  });

  it('clears an unlinked id only while the contact still holds it', () => {
    expect(
      sut.fold([facts.unlink(WS, 1, 'telegram', 'tg-old')], [stored(1, { telegram: 'tg-new' })]),
    ).toEqual([]);
    const [row] = sut.fold([facts.unlink(WS, 1, 'telegram', 'tg-1')], [stored(1, { telegram: 'tg-1' })]);
    expect(row).toMatchObject({ channels: { telegram: null } });
  });

  it('changes nothing for a link of a contact it never saw, or of another workspace', () => {
    expect(
      sut.fold([facts.link(WS, 2, 'telegram', 'x'), facts.link(OTHER_WS, 1, 'telegram', 'y')], [stored(1)]),
    ).toEqual([]);
  });

  it('applies a run in its order, each row once, in the order first changed', () => {
    const rows = sut.fold(
      [
        // Before its snapshot: the stored row is linked, then replaced whole.
        facts.link(WS, 1, 'telegram', 'early'),
        facts.snapshot(WS, { contact_id: 2, name: 'Bob' }),
        facts.snapshot(WS, { contact_id: 1, name: 'Ada' }),
        facts.link(WS, 2, 'messenger', 'm-2'),
        facts.snapshot(WS, { contact_id: 2, name: 'Bob again' }, CONTACT_FACT_TYPES.updated),
        facts.link(WS, 1, 'messenger', 'm-1'),
      ],
      [stored(1)],
    );
    expect(rows.map((row) => [row.id, row.name, row.channels])).toEqual([
      [1, 'Ada', { ...NO_CHANNELS, telegram: null, messenger: 'm-1' }],
      [2, 'Bob again', { ...NO_CHANNELS, telegram: null, messenger: null }],
    ]);
  });

  it("follows a contact's tags when it keeps them, hands the service's own facts to its hooks, and every change with its record", () => {
    const changes: Array<[number, string]> = [];
    const applied: string[] = [];
    const run: ContactViewRun<TaggedContact> = {
      changed: (row, at: ChunkRecord) => {
        row.changes = (row.changes ?? 0) + 1;
        changes.push([row.id, at.context.offset]);
      },
      apply: (at, rows) => {
        applied.push(at.record.type);
        const fact = at.record.data as EventRecordedV1;
        const row = rows.inWorkspace(Number(at.record.workspaceid), fact.contact_id);
        if (row) rows.change(row, at);
        expect([...rows.ofWorkspace(OTHER_WS)]).toEqual([]);
      },
    };
    const tagged = new ContactView(TaggedContact, {
      alsoReads: [EVENT_FACT_TYPES.recorded],
      contactOf: (record) => (record.data as EventRecordedV1).contact_id,
      begin: () => run,
    });
    expect(tagged.types).toContain(TAG_FACT_TYPES.contactTagsChanged);
    expect(tagged.types).toContain(EVENT_FACT_TYPES.recorded);
    const event = {
      event_id: 5,
      name: 'signed_up',
      contact_id: 1,
      data: {},
      occurred_at: '2026-01-01T00:00:00Z',
    };
    const rows = tagged.fold(
      [
        facts.snapshot(WS, { contact_id: 1 }),
        facts.record(WS, TAG_FACT_TYPES.contactTagsChanged, { contact_id: 1, tag_ids: [9] }),
        facts.record(OTHER_WS, TAG_FACT_TYPES.contactTagsChanged, { contact_id: 1, tag_ids: [10] }),
        facts.record(WS, EVENT_FACT_TYPES.recorded, event),
        facts.link(WS, 1, 'telegram', 'tg'),
      ],
      [],
      run,
    );
    expect(applied).toEqual([EVENT_FACT_TYPES.recorded]);
    expect(changes).toEqual([
      [1, '0'],
      [1, '1'],
      [1, '3'],
      [1, '4'],
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tagIds: [9], changes: 4, channels: { telegram: 'tg' } });
  });
});
