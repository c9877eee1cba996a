import { randomBytes } from 'node:crypto';

import {
  createEnvelope,
  ID_BLOCK_SIZE,
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  IMPORT_ROWS_REQUEST_TYPE,
  IMPORT_UPLOAD_TTL_MS,
  type ContactImportRowsRequestedV1,
  type Envelope,
  type ImportProcessRequestedV1,
  type ImportRowDecisionV1,
} from '@cms/contracts';
import type { ServiceHarness } from '@cms/service-kit/testing';

import type { SegmentsConfig } from '../src/config';

export type Harness = ServiceHarness<SegmentsConfig>;

let lastId = Math.floor(Math.random() * 1e9) * 1000;

/** An id the gateway could have minted, unique in the suite. */
export function nextId(): number {
  lastId += 1;
  return lastId;
}

/** A block start the gateway's contact sequence could hand out (1, 101, 201, …), unique in the suite. */
export function nextBlock(): number {
  lastId += ID_BLOCK_SIZE;
  return Math.floor(lastId / ID_BLOCK_SIZE) * ID_BLOCK_SIZE + 1;
}

/** An upload as the preview step stores it: its columns, and its rows from row 1 on. */
export async function storeUpload(
  harness: Harness,
  workspaceId: number,
  columns: string[],
  rows: string[][] | { count: number; sql: string },
  expiresAt = new Date(Date.now() + IMPORT_UPLOAD_TTL_MS),
): Promise<{ path: string; rowCount: number; expiresAt: Date }> {
  const path = `upl_${randomBytes(16).toString('hex')}`;
  const rowCount = Array.isArray(rows) ? rows.length : rows.count;
  await harness.db.query(
    `INSERT INTO import_uploads (path, workspace_id, columns, delimiter, row_count, sample_rows, created_at, expires_at)
     VALUES ($1, $2, $3, ',', $4, '[]', now(), $5)`,
    [path, workspaceId, columns, rowCount, expiresAt],
  );
  if (Array.isArray(rows)) {
    for (let start = 0; start < rows.length; start += 1000) {
      const part = rows.slice(start, start + 1000);
      await harness.db.query(
        `INSERT INTO import_upload_rows (path, row, cells)
         SELECT $1, (s.start + t.ordinality)::integer, ARRAY(SELECT jsonb_array_elements_text(cells))
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(cells, ordinality), (SELECT $3::integer AS start) s`,
        [path, JSON.stringify(part), start],
      );
    }
  } else {
    // `sql`: the cells of row g, e.g. ARRAY['n' || g, '+1555' || lpad(g::text, 7, '0')].
    await harness.db.query(
      `INSERT INTO import_upload_rows (path, row, cells) SELECT $1, g, ${rows.sql} FROM generate_series(1, $2) g`,
      [path, rows.count],
    );
  }
  return { path, rowCount, expiresAt };
}

/** The blocks of contact ids the gateway reserves for `rows` rows. */
export function idBlocksFor(rows: number): number[] {
  return Array.from({ length: Math.ceil(rows / ID_BLOCK_SIZE) }, () => nextBlock());
}

/** `audience-import.process.requested` as the gateway makes it for an upload. */
export function processRequest(
  upload: { path: string; rowCount: number; expiresAt: Date },
  fields: Partial<ImportProcessRequestedV1> = {},
): ImportProcessRequestedV1 {
  return {
    path: upload.path,
    mapping: { phone: 'Phone', email: 'Email', name: 'Name' },
    audience_name: `Import ${nextId()}`,
    create_new_entities: true,
    job_id: nextId(),
    audience_id: nextId(),
    contact_limit: 25_000,
    id_blocks: idBlocksFor(upload.rowCount),
    rows_total: upload.rowCount,
    upload_expires_at: upload.expiresAt.toISOString(),
    ...fields,
  };
}

/** The chunk records the import worker sent for a job, as the contacts service reads them. */
export function chunkRecordsOf(
  harness: Harness,
  jobId: number,
): Array<Envelope<ContactImportRowsRequestedV1>> {
  return harness
    .recordsOn(harness.topics.requests)
    .filter(
      (record) =>
        record.type === IMPORT_ROWS_REQUEST_TYPE &&
        (record.data as unknown as ContactImportRowsRequestedV1).job_id === jobId,
    ) as unknown as Array<Envelope<ContactImportRowsRequestedV1>>;
}

/** `contact.import-rows.decided` as the contacts service publishes it for a chunk. */
export function decidedFact(
  workspaceId: number,
  jobId: number,
  chunk: number,
  rows: ImportRowDecisionV1[],
): Envelope {
  return createEnvelope({
    type: IMPORT_ROWS_FACT_TYPE,
    source: 'contacts',
    workspaceid: String(workspaceId),
    subject: String(jobId),
    data: { job_id: jobId, chunk, rows },
  });
}

/** `contact.import-rows.refused` as the contacts service publishes it for a chunk it dead-lettered. */
export function refusedFact(workspaceId: number, jobId: number, chunk: number): Envelope {
  return createEnvelope({
    type: IMPORT_ROWS_REFUSED_FACT_TYPE,
    source: 'contacts',
    workspaceid: String(workspaceId),
    subject: String(jobId),
    data: { job_id: jobId, chunk, reason: 'handler_failed', error_id: `err-${jobId}-${chunk}` },
  });
}
