import type { EntityManager } from 'typeorm';

import type { MessageEntity } from '../message.entity';
import { storedJson } from './stored-json';

/** Every column of a message, with its type as jsonb_to_recordset reads it. */
const MESSAGE_COLUMNS = {
  id: 'text',
  workspaceId: 'bigint',
  direction: 'text',
  status: 'text',
  channelType: 'text',
  channelId: 'bigint',
  templateId: 'bigint',
  templateName: 'text',
  contactId: 'bigint',
  recipient: 'text',
  body: 'text',
  subject: 'text',
  html: 'text',
  providerMessageId: 'text',
  workflow: 'jsonb',
  campaignId: 'bigint',
  test: 'boolean',
  bot: 'jsonb',
  fallbackFrom: 'text',
  keyword: 'text',
  failure: 'jsonb',
  suppression: 'jsonb',
  sentAt: 'timestamptz',
  deliveredAt: 'timestamptz',
  readAt: 'timestamptz',
  failedAt: 'timestamptz',
  history: 'jsonb',
  route: 'jsonb',
  idempotencyKey: 'text',
  createdAt: 'timestamptz',
  updatedAt: 'timestamptz',
} as const satisfies Record<keyof MessageEntity, string>;

type MessageColumn = keyof typeof MESSAGE_COLUMNS;

/** The columns a decision changes on a stored message (status moves, the attempt's details). */
export const UPDATED_COLUMNS: ReadonlySet<string> = new Set<MessageColumn>([
  'status',
  'recipient',
  'body',
  'subject',
  'html',
  'providerMessageId',
  'failure',
  'suppression',
  'sentAt',
  'deliveredAt',
  'readAt',
  'failedAt',
  'history',
  'updatedAt',
]);

function columnName(property: string): string {
  return property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Each property of a message with its column. */
const COLUMN_OF: ReadonlyArray<[MessageColumn, string]> = (
  Object.keys(MESSAGE_COLUMNS) as MessageColumn[]
).map((property) => [property, columnName(property)]);

/** `jsonb_to_recordset($1) AS v(…)`: rows of messages, as `recordOf` writes them, read back as columns. */
const MESSAGE_ROWS = `jsonb_to_recordset($1::jsonb) AS v(${Object.entries(MESSAGE_COLUMNS)
  .map(([property, type]) => `${columnName(property)} ${type}`)
  .join(', ')})`;

const INSERT_SQL = `INSERT INTO messages (${Object.keys(MESSAGE_COLUMNS).map(columnName).join(', ')})
  SELECT ${Object.keys(MESSAGE_COLUMNS)
    .map((property) => `v.${columnName(property)}`)
    .join(', ')} FROM ${MESSAGE_ROWS}`;

const UPDATE_SQL = `UPDATE messages m SET ${[...UPDATED_COLUMNS]
  .map((property) => `${columnName(property)} = v.${columnName(property)}`)
  .join(', ')}
  FROM ${MESSAGE_ROWS} WHERE m.id = v.id`;

/** A message as a row of jsonb_to_recordset's input. */
function recordOf(message: MessageEntity): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [property, column] of COLUMN_OF) {
    const value = message[property];
    row[column] = value instanceof Date ? value.toISOString() : value;
  }
  return row;
}

/**
 * Properties of a message as they read back once stored: jsonb values in jsonb's form, times copied.
 * An undefined property is left out, as the statements leave its column alone.
 */
export function storedValues(values: Partial<MessageEntity>): Partial<MessageEntity> {
  const result: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (MESSAGE_COLUMNS[property as MessageColumn] === 'jsonb') result[property] = storedJson(value);
    else result[property] = value instanceof Date ? new Date(value.getTime()) : value;
  }
  return result;
}

/** New messages, with one statement. */
export async function insertMessages(manager: EntityManager, messages: MessageEntity[]): Promise<void> {
  if (messages.length === 0) return;
  await manager.query(INSERT_SQL, [JSON.stringify(messages.map(recordOf))]);
}

/** The columns a decision changes, of stored messages, with one statement. */
export async function updateMessages(manager: EntityManager, messages: MessageEntity[]): Promise<void> {
  if (messages.length === 0) return;
  await manager.query(UPDATE_SQL, [JSON.stringify(messages.map(recordOf))]);
}
