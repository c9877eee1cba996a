import { CONSENT_CHANNELS, LINK_CHANNELS, toE164 } from '@cms/contracts';
import { JsonApiException } from '@cms/http';

import { WorkspaceIndex, type ContactRow } from '../../evaluation/workspace-index';
import {
  DEFAULT_MEMBERS_PAGE,
  MAX_MEMBERSHIP_IDS,
  membersAnswer,
  readMembersQuery,
  type MembersQuery,
} from './audience-members';

function contact(id: number): ContactRow {
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
  };
}

/** The status a read of the query is refused with, or undefined when it is read. */
function refusal(query: Record<string, unknown>): number | undefined {
  try {
    readMembersQuery(query);
    return undefined;
  } catch (error) {
    if (error instanceof JsonApiException) return error.getStatus();
    throw error;
  }
}

describe('readMembersQuery', () => {
  it('reads a list of contact ids as a membership question, in the order asked', () => {
    expect(readMembersQuery({ contact_ids: '3, 1,2' })).toEqual({
      kind: 'membership',
      contactIds: [3, 1, 2],
    });
  });

  it('reads paging, after 0 and DEFAULT_MEMBERS_PAGE members unless told', () => {
    expect(readMembersQuery({})).toEqual({ kind: 'page', after: 0, limit: DEFAULT_MEMBERS_PAGE });
    expect(readMembersQuery({ after: '41', limit: '1000' })).toEqual({
      kind: 'page',
      after: 41,
      limit: 1000,
    });
  });

  it('refuses with 400 a bad id list, bounds out of range, contact_ids with paging and unknown parameters', () => {
    const tooMany = Array.from({ length: MAX_MEMBERSHIP_IDS + 1 }, (_, i) => i + 1).join(',');
    for (const query of [
      { contact_ids: '' },
      { contact_ids: '1,,2' },
      { contact_ids: '1,x' },
      { contact_ids: '0' },
      { contact_ids: '-4' },
      { contact_ids: '1.5' },
      { contact_ids: '99999999999999999' },
      { contact_ids: ['1', '2'] },
      { contact_ids: tooMany },
      { contact_ids: '1', after: '0' },
      { contact_ids: '1', limit: '10' },
      { limit: '0' },
      { limit: '1001' },
      { limit: 'ten' },
      { after: '-1' },
      { contact_id: '1' },
    ])
      expect([query, refusal(query)]).toEqual([query, 400]);
    expect(refusal({ contact_ids: tooMany.replace(/,[0-9]+$/, '') })).toBeUndefined();
  });
});

describe('membersAnswer', () => {
  // Rows in arrival order, not id order.
  const index = new WorkspaceIndex({ phoneE164: toE164 });
  index.upsertContacts([50, 7, 30, 3, 90, 42, 8].map(contact));
  const members = index.idsToSet([50, 7, 3, 90, 42]);
  const page = (after: number, limit: number): MembersQuery => ({ kind: 'page', after, limit });

  it('answers the asked contacts that are members, ascending, leaving out the others and unknown ids', () => {
    expect(
      membersAnswer(9, index, members, { kind: 'membership', contactIds: [90, 8, 3, 3, 12345] }),
    ).toEqual({
      audience_id: 9,
      member_ids: [3, 90],
    });
  });

  it('pages the members in id order, next_after null on the last page', () => {
    expect(membersAnswer(9, index, members, page(0, 2))).toEqual({
      audience_id: 9,
      contact_ids: [3, 7],
      next_after: 7,
    });
    expect(membersAnswer(9, index, members, page(7, 2))).toEqual({
      audience_id: 9,
      contact_ids: [42, 50],
      next_after: 50,
    });
    expect(membersAnswer(9, index, members, page(50, 2))).toEqual({
      audience_id: 9,
      contact_ids: [90],
      next_after: null,
    });
    // A page that ends exactly with the last member says so.
    expect(membersAnswer(9, index, members, page(7, 3))).toEqual({
      audience_id: 9,
      contact_ids: [42, 50, 90],
      next_after: null,
    });
    expect(membersAnswer(9, index, members, page(90, 2))).toEqual({
      audience_id: 9,
      contact_ids: [],
      next_after: null,
    });
  });
});
