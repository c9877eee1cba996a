import { createWriteStream, openAsBlob, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';

import { Partitioners, type PartitionMetadata } from 'kafkajs';

import { BENCH_DIR, type BenchSystem, type Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import { WorkspaceKeys } from '../support/workspace-keys';
import { spread, startSegments, waitViewCaughtUp, type Spread } from './segment-previews.figure';

export interface ImportJobCounters {
  status: string;
  rows_total: number;
  rows_processed: number;
  contacts_created: number;
  contacts_matched: number;
  rows_skipped: number;
  /** The job's first errors, by reason. */
  errors: Record<string, number>;
}

export interface SegmentImport {
  status: 'measured';
  rows: number;
  fileBytes: number;
  /** Contacts of the workspace before the import (made through the API): half the rows name them. */
  existingContacts: number;
  /** What the file holds: the counters a correct import ends with. */
  expected: { matched: number; created: number; skipped: number };
  /** `POST /api/v1/audience-import/preview` (multipart) → its 201. */
  uploadSeconds: number;
  /** `POST /api/v1/audience-import/process` → the job's status `completed`. */
  processSeconds: number;
  /** Upload sent → job completed. */
  totalSeconds: number;
  rowsPerSecond: number;
  job: ImportJobCounters;
  /** rows_processed as the job showed it, every few seconds: the progress a client sees. */
  progress: Array<{ seconds: number; rows: number }>;
  /**
   * A contact upsert of another workspace whose requests share the import's partition of the
   * requests topic (`POST /api/v1/contacts/upsert`), every NEIGHBOUR_EVERY_MS while the job ran: 201/200 → the answer, in ms. What the
   * import's window of chunks (IMPORT_CHUNKS_AHEAD) costs the workspaces queued behind it.
   */
  neighbour: { workspaceId: number; partition: number; calls: number; failed: number; ms: Spread } | null;
  cpu: CpuUsage;
}

export type SegmentImportResult = SegmentImport | { status: 'not measured'; reason: string };

export interface SegmentImportOptions {
  rows: number;
  /** Called as the upload starts and once the job is completed (the bench's --profile). */
  profile?: { start(): void; finish(rows: number): Promise<void> };
}

const KEYS = 6;
/** Contacts a `POST /api/v1/contacts/batch` holds at most. */
const BATCH = 1_000;
const BATCH_CONCURRENCY = 4;
const JOB_TIMEOUT_MS = 1_800_000;
const JOB_POLL_MS = 1_000;
/** A job whose rows stop moving for this long is stuck, whatever its time limit. */
const JOB_STALL_MS = 120_000;
/** The rows that identify nobody: a phone that is not one, and a row with neither phone nor email. */
const INVALID_EVERY = 1_000;
const NO_IDENTIFIER_AT = 500;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How often the neighbour writes a contact while the import runs (under its key's 120 a minute). */
const NEIGHBOUR_EVERY_MS = 600;
/** Workspaces made to find one whose requests share the import's partition (1 in 24 does). */
const NEIGHBOUR_CANDIDATES = 96;

/** A workspace whose requests land on the same partition of the requests topic as `workspaceId`'s. */
async function neighbourOf(
  system: BenchSystem,
  workspaceId: number,
): Promise<{ tenant: Tenant; partition: number } | undefined> {
  const admin = system.kafka.admin();
  await admin.connect();
  let partitions: PartitionMetadata[];
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [system.topics.requests] });
    partitions = metadata.topics[0]!.partitions;
  } finally {
    await admin.disconnect();
  }
  // As the services' producers place a request: by its workspace id (BatchingProducer).
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionOf = (id: number): number =>
    partitioner({
      topic: system.topics.requests,
      partitionMetadata: partitions,
      message: { key: String(id), value: null },
    });
  const partition = partitionOf(workspaceId);
  const tenant = (await system.tenants(NEIGHBOUR_CANDIDATES, 'agency')).find(
    (candidate) => partitionOf(candidate.workspaceId) === partition,
  );
  return tenant ? { tenant, partition } : undefined;
}

/** Upserts of `tenant`'s contacts until `done`, one every NEIGHBOUR_EVERY_MS: their answers' times. */
async function neighbourWrites(
  system: BenchSystem,
  tenant: Tenant,
  done: () => boolean,
): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  for (let n = 0; !done(); n += 1) {
    const started = performance.now();
    const answer = await system.call(
      'POST',
      '/api/v1/contacts/upsert',
      { authorization: `Bearer ${tenant.key}` },
      { phone: `+1646${String(2_000_000 + n).padStart(7, '0')}`, name: `Neighbour ${n}` },
    );
    const took = performance.now() - started;
    if (answer.status === 200 || answer.status === 201) ms.push(took);
    else failed += 1;
    await sleep(Math.max(0, NEIGHBOUR_EVERY_MS - took));
  }
  return { ms, failed };
}

/** The k-th contact made before the import, and the k-th new one: distinct E.164 numbers. */
const existingPhone = (k: number): string => `+1415${String(2_000_000 + k).padStart(7, '0')}`;
const newPhone = (k: number): string => `+1312${String(2_000_000 + k).padStart(7, '0')}`;

interface CsvRows {
  bytes: number;
  expected: SegmentImport['expected'];
}

/**
 * `rows` data rows (phone,email,name): even rows name a contact made before, odd rows a new phone,
 * every 1,000th row a phone that is not one and every 1,000th (offset 500) no phone or email; a third
 * of the rows carry an email too.
 */
async function writeCsv(path: string, rows: number): Promise<CsvRows> {
  const out = createWriteStream(path);
  const expected = { matched: 0, created: 0, skipped: 0 };
  let chunk = 'phone,email,name\n';
  for (let row = 1; row <= rows; row += 1) {
    const k = Math.floor((row - 1) / 2);
    const existing = row % 2 === 0;
    let phone = existing ? existingPhone(k) : newPhone(k);
    let email = row % 3 === 0 ? `u${row}@mail.example.com` : '';
    if (row % INVALID_EVERY === 0) {
      phone = 'n/a';
      email = '';
      expected.skipped += 1;
    } else if (row % INVALID_EVERY === NO_IDENTIFIER_AT) {
      phone = '';
      email = '';
      expected.skipped += 1;
    } else if (existing) expected.matched += 1;
    else expected.created += 1;
    chunk += `${phone},${email},Reader ${row}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return { bytes: statSync(path).size, expected };
}

/** Whether the gateway serves the import routes: without a file the preview is refused, never 404. */
async function importRoutes(keys: WorkspaceKeys): Promise<string | undefined> {
  for (const [path, body] of [
    ['/api/v1/audience-import/preview', {}],
    ['/api/v1/audience-import/process', {}],
  ] as const) {
    const answer = await keys.call('POST', path, body).catch((error: unknown) => ({ status: 0, error }));
    if (answer.status === 404 || answer.status === 405 || answer.status >= 500 || answer.status === 0) {
      return `POST ${path} answered ${answer.status || 'nothing'}: this build has no import route there`;
    }
  }
  return undefined;
}

/** `count` contacts with the phones the file's even rows name, through `POST /api/v1/contacts/batch`. */
async function makeContacts(keys: WorkspaceKeys, count: number, log: (line: string) => void): Promise<void> {
  let next = 0;
  let lastLog = Date.now();
  const worker = async (): Promise<void> => {
    for (;;) {
      const start = next;
      if (start >= count) return;
      next += BATCH;
      const contacts = Array.from({ length: Math.min(BATCH, count - start) }, (_, index) => ({
        phone: existingPhone(start + index),
        name: `Customer ${start + index}`,
      }));
      const answer = await keys.call('POST', '/api/v1/contacts/batch', { contacts });
      if (answer.status !== 200) {
        throw new Error(
          `contacts batch answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`,
        );
      }
      if (Date.now() - lastLog > 10_000) {
        log(`contacts made for the import: ${Math.min(next, count)} of ${count}`);
        lastLog = Date.now();
      }
    }
  };
  await Promise.all(Array.from({ length: BATCH_CONCURRENCY }, worker));
}

function countersOf(job: Record<string, unknown>): ImportJobCounters {
  const errors: Record<string, number> = {};
  for (const error of (job.errors as Array<{ reason: string }> | undefined) ?? []) {
    errors[error.reason] = (errors[error.reason] ?? 0) + 1;
  }
  return {
    status: String(job.status),
    rows_total: Number(job.rows_total),
    rows_processed: Number(job.rows_processed),
    contacts_created: Number(job.contacts_created),
    contacts_matched: Number(job.contacts_matched),
    rows_skipped: Number(job.rows_skipped),
    errors,
  };
}

/**
 * An import of a `rows`-row CSV (issue 19, ≤ 120 s for 1,000,000 rows) into a workspace that already
 * holds the contacts half the rows name: upload (`POST /api/v1/audience-import/preview`, multipart
 * `file`), process (`POST /api/v1/audience-import/process`, new contacts created), then the job polled
 * every second until it is completed. The rows become contact requests the contacts service decides;
 * the job ends when segments has every row's decision.
 */
export async function measureSegmentImport(
  system: BenchSystem,
  options: SegmentImportOptions,
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<SegmentImportResult> {
  await startSegments(system, log);
  const keys = await WorkspaceKeys.make(system, 'agency', KEYS);
  const missing = await importRoutes(keys);
  if (missing !== undefined) {
    log(`import not measured: ${missing}`);
    return { status: 'not measured', reason: missing };
  }
  const existing = Math.floor(options.rows / 2);
  log(`making the ${existing} contacts half the file's rows name (POST /api/v1/contacts/batch)`);
  await makeContacts(keys, existing, log);
  // Their facts are in the view before the import starts, as a workspace's contacts would be.
  await waitViewCaughtUp(system, 900_000, log);
  const neighbour = await neighbourOf(system, keys.workspaceId);
  log(
    neighbour
      ? `neighbour: workspace ${neighbour.tenant.workspaceId} shares partition ${neighbour.partition} of the requests topic`
      : "no neighbour on the import's partition among the workspaces made",
  );

  const file = join(BENCH_DIR, `import-${system.namespace}.csv`);
  try {
    const csv = await writeCsv(file, options.rows);
    log(`uploading a ${options.rows}-row CSV (${(csv.bytes / 2 ** 20).toFixed(1)} MiB)`);
    options.profile?.start();
    const start = meter.snapshot();
    const started = performance.now();
    const upload = await keys.upload<{ data?: { path?: string; row_count?: number } }>(
      '/api/v1/audience-import/preview',
      'file',
      await openAsBlob(file, { type: 'text/csv' }),
      'contacts.csv',
    );
    if (upload.status !== 201 || typeof upload.body.data?.path !== 'string') {
      throw new Error(`upload answered ${upload.status}: ${JSON.stringify(upload.body).slice(0, 300)}`);
    }
    if (upload.body.data.row_count !== options.rows) {
      throw new Error(`the upload counted ${upload.body.data.row_count} rows of ${options.rows}`);
    }
    const uploaded = performance.now();
    const processed = await keys.call<{ data?: { job_id?: number } }>(
      'POST',
      '/api/v1/audience-import/process',
      {
        path: upload.body.data.path,
        mapping: { phone: 'phone', email: 'email', name: 'name' },
        audience_name: `bench import ${options.rows}`,
        create_new_entities: true,
      },
    );
    const jobId = processed.body.data?.job_id;
    if (processed.status !== 202 || jobId === undefined) {
      throw new Error(
        `process answered ${processed.status}: ${JSON.stringify(processed.body).slice(0, 300)}`,
      );
    }
    const queued = performance.now();
    log(`job ${jobId} queued; polling it`);
    let jobEnded = false;
    const neighbourRun = neighbour
      ? neighbourWrites(system, neighbour.tenant, () => jobEnded)
      : Promise.resolve(undefined);
    const progress: SegmentImport['progress'] = [];
    let job: ImportJobCounters | undefined;
    let lastLog = Date.now();
    let lastMove = performance.now();
    for (;;) {
      const read = await keys.call<{ data?: Record<string, unknown> }>(
        'GET',
        `/api/v1/audience-import/jobs/${jobId}`,
      );
      if (read.status === 200 && read.body.data) {
        const latest = countersOf(read.body.data);
        if (latest.rows_processed !== job?.rows_processed || latest.status !== job.status)
          lastMove = performance.now();
        job = latest;
        progress.push({
          seconds: Math.round((performance.now() - started) / 100) / 10,
          rows: job.rows_processed,
        });
        if (job.status === 'completed' || job.status === 'failed') break;
      }
      if (performance.now() - queued > JOB_TIMEOUT_MS) {
        throw new Error(`job ${jobId} still ${job?.status ?? 'unread'} after ${JOB_TIMEOUT_MS / 1000} s`);
      }
      if (performance.now() - lastMove > JOB_STALL_MS) {
        throw new Error(
          `job ${jobId} stayed ${job?.status ?? 'unread'} at ${job?.rows_processed ?? 0} rows for ${JOB_STALL_MS / 1000} s`,
        );
      }
      if (Date.now() - lastLog >= 10_000) {
        log(`job ${jobId}: ${job?.status ?? 'unread'}, ${job?.rows_processed ?? 0} of ${options.rows} rows`);
        lastLog = Date.now();
      }
      await sleep(JOB_POLL_MS);
    }
    const finished = performance.now();
    jobEnded = true;
    const cpu = meter.between(start, meter.snapshot());
    const neighbourSeen = await neighbourRun;
    await options.profile?.finish(options.rows);
    if (job.status !== 'completed') throw new Error(`job ${jobId} ended ${job.status}`);
    const totalSeconds = (finished - started) / 1000;
    const result: SegmentImport = {
      status: 'measured',
      rows: options.rows,
      fileBytes: csv.bytes,
      existingContacts: existing,
      expected: csv.expected,
      uploadSeconds: Math.round((uploaded - started) / 100) / 10,
      processSeconds: Math.round((finished - uploaded) / 100) / 10,
      totalSeconds: Math.round(totalSeconds * 10) / 10,
      rowsPerSecond: Math.round(options.rows / totalSeconds),
      job,
      progress,
      neighbour:
        neighbour && neighbourSeen
          ? {
              workspaceId: neighbour.tenant.workspaceId,
              partition: neighbour.partition,
              calls: neighbourSeen.ms.length + neighbourSeen.failed,
              failed: neighbourSeen.failed,
              ms: spread(neighbourSeen.ms),
            }
          : null,
      cpu,
    };
    const { matched, created, skipped } = csv.expected;
    if (
      job.contacts_matched !== matched ||
      job.contacts_created !== created ||
      job.rows_skipped !== skipped ||
      job.rows_processed !== options.rows
    ) {
      log(
        `IMPORT COUNTERS DIFFER from the file: matched ${job.contacts_matched}/${matched}, ` +
          `created ${job.contacts_created}/${created}, skipped ${job.rows_skipped}/${skipped}, ` +
          `processed ${job.rows_processed}/${options.rows}`,
      );
    }
    log(
      `import of ${options.rows} rows completed in ${result.totalSeconds} s (${result.rowsPerSecond} rows/s)`,
    );
    if (result.neighbour) {
      const { calls, failed, ms } = result.neighbour;
      log(
        `neighbour's upserts meanwhile: ${calls} (${failed} failed), p50 ${ms.p50} ms, p95 ${ms.p95} ms, max ${ms.max} ms`,
      );
    }
    return result;
  } finally {
    rmSync(file, { force: true });
  }
}
