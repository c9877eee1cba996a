import { JsonApiException, type QueryParams } from '@cms/http';

import type { Bitset } from '../../evaluation/bitset';
import type { WorkspaceIndex } from '../../evaluation/workspace-index';

/** At most this many contacts are asked about at once. */
export const MAX_MEMBERSHIP_IDS = 100;
/** At most this many members are listed in one page; a page asks for DEFAULT_MEMBERS_PAGE unless told. */
export const MAX_MEMBERS_PAGE = 1000;
export const DEFAULT_MEMBERS_PAGE = 500;

/**
 * What `GET internal/v1/audiences/:id/members` is asked: whether some contacts are members, or a page
 * of the members with ids above `after`.
 */
export type MembersQuery =
  { kind: 'membership'; contactIds: number[] } | { kind: 'page'; after: number; limit: number };

const KNOWN_PARAMETERS = new Set(['contact_ids', 'after', 'limit']);
const CONTACT_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Reads the query, refusing with 400 what it cannot answer: a parameter it does not know (a misspelt
 * `contact_ids` would otherwise be answered as a page), `contact_ids` together with paging, an id
 * list that is empty, too long or holds something that is not an id, a bound out of range.
 */
export function readMembersQuery(query: QueryParams): MembersQuery {
  const unknown = Object.keys(query).filter((name) => !KNOWN_PARAMETERS.has(name));
  if (unknown.length > 0)
    throw JsonApiException.badRequest(
      `Unknown query parameter ${unknown.join(', ')}: ask contact_ids, or after and limit.`,
    );
  const asked = query['contact_ids'];
  if (asked === undefined)
    return {
      kind: 'page',
      after: integerParameter(query, 'after', 0, Number.MAX_SAFE_INTEGER, 0),
      limit: integerParameter(query, 'limit', 1, MAX_MEMBERS_PAGE, DEFAULT_MEMBERS_PAGE),
    };
  if (query['after'] !== undefined || query['limit'] !== undefined)
    throw JsonApiException.badRequest('contact_ids is asked alone, without after or limit.');
  return { kind: 'membership', contactIds: contactIdList(asked) };
}

function integerParameter(
  query: QueryParams,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^[0-9]{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw JsonApiException.badRequest(`${name} must be an integer from ${min} to ${max}.`);
  return value;
}

function contactIdList(raw: unknown): number[] {
  // A repeated parameter arrives as an array: refused, the list is one comma-separated value.
  const parts = typeof raw === 'string' ? raw.split(',').map((part) => part.trim()) : [];
  const ids = parts.map((part) => (CONTACT_ID.test(part) ? Number(part) : NaN));
  if (ids.length === 0 || ids.length > MAX_MEMBERSHIP_IDS || ids.some((id) => !Number.isSafeInteger(id)))
    throw JsonApiException.badRequest(
      `contact_ids must be 1 to ${MAX_MEMBERSHIP_IDS} contact ids, comma separated.`,
    );
  return ids;
}

/**
 * The answer from the audience's `members` (as AudienceEvaluator finds them for its size and
 * snapshot): the asked contacts that are members, ascending (another workspace's contact is in no set
 * of this index); or the page of members with ids above `after` in id order, with the id the next
 * page starts after, null when none follows.
 */
export function membersAnswer(
  audienceId: number,
  index: WorkspaceIndex,
  members: Bitset,
  asked: MembersQuery,
): Record<string, unknown> {
  switch (asked.kind) {
    case 'membership':
      return {
        audience_id: audienceId,
        member_ids: index.members(index.idsToSet(asked.contactIds).and(members)),
      };
    case 'page': {
      // One more than the page tells whether another follows.
      const found = index.sample(members, asked.limit + 1, asked.after);
      const page = found.slice(0, asked.limit);
      return {
        audience_id: audienceId,
        contact_ids: page,
        next_after: found.length > asked.limit ? page.at(-1)! : null,
      };
    }
  }
}
