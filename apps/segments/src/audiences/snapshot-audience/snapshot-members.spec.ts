import { CONSENT_CHANNELS, LINK_CHANNELS, toE164, type ConsentChannel } from '@cms/contracts';

import { WorkspaceIndex, type ContactRow } from '../../evaluation/workspace-index';
import { addressReader, snapshotMembers } from './snapshot-members';

function contact(id: number, fields: Partial<ContactRow> = {}): ContactRow {
  return {
    id,
    name: null,
    phone: null,
    email: null,
    external_id: null,
    source: null,
    data: {},
    marketing_consent: Object.fromEntries(
      CONSENT_CHANNELS.map((channel) => [channel, null]),
    ) as ContactRow['marketing_consent'],
    channels: Object.fromEntries(LINK_CHANNELS.map((channel) => [channel, null])) as ContactRow['channels'],
    tag_ids: [],
    created_at: 0,
    updated_at: 0,
    ...fields,
  };
}

/** The contacts in the order given: rows are handed out in arrival order, not id order. */
function indexOf(contacts: ContactRow[]): WorkspaceIndex {
  const index = new WorkspaceIndex({ phoneE164: toE164 });
  index.upsertContacts(contacts);
  return index;
}

function snapshot(contacts: ContactRow[], channel: ConsentChannel) {
  const index = indexOf(contacts);
  return snapshotMembers(index, index.all(), channel);
}

const linked = (channels: Partial<ContactRow['channels']>) => ({
  channels: { telegram: null, messenger: null, instagram: null, browser_push: null, ...channels },
});

describe('addressReader: a member’s recipient address per channel', () => {
  const index = indexOf([
    contact(1, {
      phone: '+44 7700 900123',
      email: 'Ana@Example.COM',
      ...linked({ telegram: ' tg-Ana ', messenger: 'fb-1', instagram: 'ig-1', browser_push: 'push-1' }),
    }),
    contact(2, { phone: '12' }),
    contact(3),
  ]);
  const read = (channel: ConsentChannel, row: number) => addressReader(index, channel)!(row);

  it.each(['sms', 'whatsapp', 'rcs'] as const)('%s: the phone in E.164', (channel) => {
    expect(read(channel, 0)).toBe('+447700900123');
    // A number with no E.164 form is kept as it is: messaging sends to it so.
    expect(read(channel, 1)).toBe('12');
    expect(read(channel, 2)).toBeNull();
  });

  it('email: the address in lower case', () => {
    expect(read('email', 0)).toBe('ana@example.com');
    expect(read('email', 2)).toBeNull();
  });

  it('telegram, messenger, instagram: the linked id, trimmed, its case kept', () => {
    expect(read('telegram', 0)).toBe('tg-Ana');
    expect(read('messenger', 0)).toBe('fb-1');
    expect(read('instagram', 0)).toBe('ig-1');
    expect(read('telegram', 1)).toBeNull();
  });

  it('browser_push: none, every member is its own recipient', () => {
    expect(addressReader(index, 'browser_push')).toBeUndefined();
  });
});

describe('snapshotMembers: who of an audience gets a message', () => {
  it('keeps the lowest id of members whose phones are the same number, however written', () => {
    const members = snapshot(
      [
        contact(50, { phone: '+447700900123' }),
        contact(30, { phone: '+44 7700 900123' }),
        contact(40, { phone: '00447700900123' }),
        contact(20, { phone: '+447700900999' }),
        contact(10),
        contact(60),
      ],
      'sms',
    );
    expect(members).toEqual({ contactIds: [10, 20, 30, 60], audienceSize: 6, deduplicated: 2 });
  });

  it('compares emails in lower case and linked ids as sent', () => {
    const people = [
      contact(3, { email: 'Ana@Example.com', ...linked({ telegram: 'tg-1' }) }),
      contact(1, { email: 'ana@example.COM', ...linked({ telegram: 'TG-1' }) }),
      contact(2, { email: 'bob@example.com', ...linked({ telegram: ' tg-1' }) }),
    ];
    expect(snapshot(people, 'email')).toEqual({ contactIds: [1, 2], audienceSize: 3, deduplicated: 1 });
    // TG-1 differs from tg-1; " tg-1" is tg-1 trimmed, so 3 loses it to 2.
    expect(snapshot(people, 'telegram')).toEqual({ contactIds: [1, 2], audienceSize: 3, deduplicated: 1 });
  });

  it('never deduplicates browser_push members, nor members without an address', () => {
    const people = [
      contact(2, linked({ browser_push: 'push-1' })),
      contact(1, linked({ browser_push: 'push-1' })),
      contact(3),
    ];
    expect(snapshot(people, 'browser_push')).toEqual({
      contactIds: [1, 2, 3],
      audienceSize: 3,
      deduplicated: 0,
    });
    expect(snapshot(people, 'instagram')).toEqual({
      contactIds: [1, 2, 3],
      audienceSize: 3,
      deduplicated: 0,
    });
  });

  it('looks only at the members: a contact outside the set takes no address from them', () => {
    const index = indexOf([
      contact(1, { email: 'same@example.com' }),
      contact(2, { email: 'same@example.com' }),
      contact(3, { email: 'same@example.com' }),
    ]);
    const members = snapshotMembers(index, index.idsToSet([2, 3]), 'email');
    expect(members).toEqual({ contactIds: [2], audienceSize: 2, deduplicated: 1 });
  });

  it('keeps the lowest id per address over many members arriving in any order', () => {
    const ids = Array.from({ length: 20_000 }, (_, row) => 1_000_000_000_000 + ((row * 7_919) % 20_000));
    const index = indexOf(ids.map((id) => contact(id, { email: `user${id % 1_000}@example.com` })));
    const members = snapshotMembers(index, index.all(), 'email');
    expect(members.audienceSize).toBe(20_000);
    expect(members.deduplicated).toBe(19_000);
    expect(members.contactIds).toEqual([...ids].sort((a, b) => a - b).slice(0, 1_000));
  });
});
