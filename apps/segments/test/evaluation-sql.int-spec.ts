import { readFilterCriteria, type FilterNode } from '@cms/contracts';
import { testStack, uniqueName } from '@cms/testing';
import { Client } from 'pg';

import type { Bitset } from '../src/evaluation/bitset';
import type { ContactEventRow } from '../src/evaluation/event-store';
import { filterToSql } from '../src/evaluation/filter-sql';
import {
  RANDOM_NOW,
  randomContact,
  randomCriteria,
  randomEvent,
  randomPhoneE164,
} from '../src/evaluation/random-workspace';
import { seededRandom } from '../src/evaluation/synthetic-workspace';
import { WorkspaceIndex, type ContactRow } from '../src/evaluation/workspace-index';

/**
 * The filter compiled to SQL (the "Postgres alone" baseline of the benchmark) answers what the
 * in-memory index answers: random filters over a random workspace, in a schema of this suite's own
 * (dropped at the end) with the segments service's contact view, next to a second workspace whose
 * contacts and events must never count. The session's time zone is not UTC, so nothing may depend
 * on it.
 */

const WORKSPACE = 7;
const OTHER_WORKSPACE = 8;

let client: Client;
let schema: string;
const index = new WorkspaceIndex({ phoneE164: randomPhoneE164 });
const audiences = new Map<number, number[]>();

async function insertContacts(workspaceId: number, contacts: ContactRow[]): Promise<void> {
  for (const contact of contacts) {
    await client.query(
      `INSERT INTO contacts (id, workspace_id, name, phone, email, external_id, source, data, marketing_consent,
         channels, tag_ids, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        contact.id,
        workspaceId,
        contact.name,
        contact.phone,
        contact.email,
        contact.external_id,
        contact.source,
        JSON.stringify(contact.data),
        JSON.stringify(contact.marketing_consent),
        JSON.stringify(contact.channels),
        contact.tag_ids,
        new Date(contact.created_at).toISOString(),
        new Date(contact.updated_at).toISOString(),
      ],
    );
  }
}

async function insertEvents(workspaceId: number, events: ContactEventRow[]): Promise<void> {
  for (const event of events) {
    await client.query(
      `INSERT INTO contact_events (event_id, workspace_id, contact_id, name, occurred_at) VALUES ($1, $2, $3, $4, $5)`,
      [event.event_id, workspaceId, event.contact_id, event.name, new Date(event.occurred_at).toISOString()],
    );
  }
}

beforeAll(async () => {
  const stack = await testStack();
  schema = uniqueName('evaluation_sql');
  client = new Client({ connectionString: stack.databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.query(`SET search_path TO ${schema}`);
  await client.query(`SET TIME ZONE 'America/New_York'`);
  await client.query(`
    CREATE TABLE contacts (
      id bigint PRIMARY KEY,
      workspace_id bigint NOT NULL,
      name text,
      phone text,
      email text,
      external_id text,
      source text,
      data jsonb NOT NULL,
      marketing_consent jsonb NOT NULL,
      channels jsonb NOT NULL,
      tag_ids bigint[] NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
  await client.query(`
    CREATE TABLE contact_events (
      event_id bigint PRIMARY KEY,
      workspace_id bigint NOT NULL,
      contact_id bigint NOT NULL,
      name text NOT NULL,
      occurred_at timestamptz NOT NULL
    )`);

  const random = seededRandom(11);
  const ids = new Set<number>();
  while (ids.size < 300) ids.add(1 + Math.floor(random() * 1e9));
  const contacts = [...ids].map((id) => randomContact(random, id));
  const events = Array.from({ length: 900 }, (_, offset) => randomEvent(random, offset + 1, [...ids]));
  index.upsertContacts(contacts);
  index.upsertEvents(events);
  await insertContacts(WORKSPACE, contacts);
  await insertEvents(WORKSPACE, events);
  // Another workspace: contacts like these (other ids) and events naming this workspace's contact ids.
  await insertContacts(
    OTHER_WORKSPACE,
    [...ids].slice(0, 50).map((id) => randomContact(random, id + 2e9)),
  );
  await insertEvents(
    OTHER_WORKSPACE,
    Array.from({ length: 300 }, (_, offset) => randomEvent(random, 10_000 + offset, [...ids])),
  );
  for (const id of [1, 2])
    audiences.set(
      id,
      [...ids].filter(() => random() < 0.4),
    );
});

afterAll(async () => {
  if (client === undefined) return;
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

describe('a filter compiled to SQL', () => {
  it('counts and lists the contacts the in-memory index finds, for hundreds of random filters', async () => {
    const random = seededRandom(12);
    const members = new Map<number, Bitset>([...audiences].map(([id, list]) => [id, index.idsToSet(list)]));
    let telling = 0;
    for (let run = 0; run < 400; run += 1) {
      const criteria = randomCriteria(random);
      const expected = index.members(
        index.evaluate(criteria, { now: RANDOM_NOW, audience: (id) => members.get(id)! }),
      );
      const { where, params } = filterToSql(criteria, {
        now: RANDOM_NOW,
        phoneE164: randomPhoneE164,
        audience: (id, bind) => `c.id = ANY(${bind(audiences.get(id)!)}::bigint[])`,
        firstParameter: 2,
      });
      const found = await client.query<{ id: string }>(
        `SELECT c.id FROM contacts c WHERE c.workspace_id = $1 AND ${where} ORDER BY c.id`,
        [WORKSPACE, ...params],
      );
      const counted = await client.query<{ count: string }>(
        `SELECT count(*) FROM contacts c WHERE c.workspace_id = $1 AND ${where}`,
        [WORKSPACE, ...params],
      );
      expect({ criteria, ids: found.rows.map((row) => Number(row.id)) }).toEqual({ criteria, ids: expected });
      expect(Number(counted.rows[0]!.count)).toBe(expected.length);
      if (expected.length > 0 && expected.length < index.size) telling += 1;
    }
    expect(telling).toBeGreaterThan(200);
  });

  it('binds every value: a value written to break out of its string stays a value', async () => {
    const criteria = criteriaOf([
      { field: 'name', operator: 'eq', value: "x') OR TRUE OR ('" },
      { field: 'data.plan', operator: 'contains', value: "'; DROP TABLE contacts; --" },
    ]);
    const { where, params } = filterToSql(criteria, {
      now: RANDOM_NOW,
      phoneE164: randomPhoneE164,
      audience: () => 'FALSE',
    });
    expect(where).not.toContain('DROP');
    const result = await client.query(`SELECT count(*) FROM contacts c WHERE ${where}`, params);
    expect(result.rows).toEqual([{ count: '0' }]);
  });
});

function criteriaOf(raw: unknown[]): FilterNode[] {
  const reading = readFilterCriteria(raw);
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  return reading.criteria;
}
