import { MAX_IMPORT_JOB_ERRORS, type ImportRowDecisionV1 } from '@cms/contracts';

import { ImportJobEntity } from './import-job.entity';
import { applyDecidedChunk, failJob, mergeErrors, type DecidedChunk } from './import-progress';

function job(rowsTotal: number): ImportJobEntity {
  return Object.assign(new ImportJobEntity(), {
    id: 7,
    workspaceId: 1,
    audienceId: 70,
    status: 'queued',
    rowsTotal,
    rowsProcessed: 0,
    contactsCreated: 0,
    contactsMatched: 0,
    rowsSkipped: 0,
    errors: [],
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    startedAt: null,
    finishedAt: null,
  });
}

const created = (row: number, id: number): ImportRowDecisionV1 => ({
  row,
  outcome: 'created',
  contact_id: id,
  reason: null,
});
const matched = (row: number, id: number): ImportRowDecisionV1 => ({
  row,
  outcome: 'matched',
  contact_id: id,
  reason: null,
});
const skipped = (row: number, reason: ImportRowDecisionV1['reason']): ImportRowDecisionV1 => ({
  row,
  outcome: 'skipped',
  contact_id: null,
  reason,
});

const first: DecidedChunk = {
  chunk: 0,
  at: new Date('2026-01-01T00:01:00.000Z'),
  rows: [created(1, 101), matched(2, 55), skipped(3, 'invalid_phone')],
};
const second: DecidedChunk = {
  chunk: 1,
  at: new Date('2026-01-01T00:02:00.000Z'),
  rows: [skipped(4, 'no_match'), matched(5, 55)],
};

describe('a decided chunk applied to its job', () => {
  it('adds its counts, its skipped rows as errors and its contacts as members; running until the last row', () => {
    const target = job(5);
    expect(applyDecidedChunk(target, first)).toEqual({ members: [101, 55], completed: false, failed: false });
    expect(target).toMatchObject({
      status: 'running',
      rowsProcessed: 3,
      contactsCreated: 1,
      contactsMatched: 1,
      rowsSkipped: 1,
      errors: [{ row: 3, reason: 'invalid_phone' }],
      startedAt: first.at,
    });
    expect(applyDecidedChunk(target, second)).toEqual({ members: [55], completed: true, failed: false });
    expect(target).toMatchObject({
      status: 'completed',
      rowsProcessed: 5,
      contactsMatched: 2,
      rowsSkipped: 2,
      errors: [
        { row: 3, reason: 'invalid_phone' },
        { row: 4, reason: 'no_match' },
      ],
    });
  });

  it('ends the same whatever order the chunks come in', () => {
    const inOrder = job(5);
    applyDecidedChunk(inOrder, first);
    applyDecidedChunk(inOrder, second);
    const reversed = job(5);
    applyDecidedChunk(reversed, second);
    applyDecidedChunk(reversed, first);
    expect(reversed).toEqual(inOrder);
  });

  it('leaves a failed job failed, counting what was decided', () => {
    const failed = Object.assign(job(10), { status: 'failed' });
    expect(applyDecidedChunk(failed, first).completed).toBe(false);
    expect(failed).toMatchObject({ status: 'failed', rowsProcessed: 3 });
  });

  it('fails the job with a refused chunk, whose rows count nowhere; later chunks still count', () => {
    const refused: DecidedChunk = { chunk: 1, at: second.at, rows: [], refused: 'handler_failed' };
    const target = job(5);
    applyDecidedChunk(target, first);
    expect(applyDecidedChunk(target, refused)).toEqual({ members: [], completed: false, failed: true });
    expect(target).toMatchObject({ status: 'failed', rowsProcessed: 3, finishedAt: second.at });
    // Read again (it is recorded once, but the rule holds anyway): failed already, not failed by it.
    expect(applyDecidedChunk(target, refused).failed).toBe(false);
  });

  it('ends a refused job the same whatever order its chunks and failures come in', () => {
    const refused: DecidedChunk = { chunk: 0, at: first.at, rows: [], refused: 'handler_failed' };
    const inOrder = job(5);
    applyDecidedChunk(inOrder, refused);
    applyDecidedChunk(inOrder, second);
    failJob(inOrder, new Date('2026-01-01T00:03:00.000Z'));
    const reversed = job(5);
    failJob(reversed, new Date('2026-01-01T00:03:00.000Z'));
    applyDecidedChunk(reversed, second);
    applyDecidedChunk(reversed, refused);
    expect(reversed).toEqual(inOrder);
    expect(inOrder).toMatchObject({
      status: 'failed',
      finishedAt: first.at,
      startedAt: first.at,
      rowsProcessed: 2,
    });
  });

  it('never fails a completed job', () => {
    const target = job(3);
    applyDecidedChunk(target, first);
    expect(failJob(target, second.at)).toBe(false);
    expect(target).toMatchObject({ status: 'completed', finishedAt: null });
  });

  it('keeps the first MAX_IMPORT_JOB_ERRORS skipped rows, in row order', () => {
    const late = Array.from({ length: 80 }, (_, n) => skipped(1000 + n, 'no_match'));
    const early = Array.from({ length: 80 }, (_, n) => skipped(1 + n, 'no_identifier'));
    const errors = mergeErrors(mergeErrors([], late), early);
    expect(errors).toHaveLength(MAX_IMPORT_JOB_ERRORS);
    expect(errors[0]).toEqual({ row: 1, reason: 'no_identifier' });
    expect(errors.at(-1)).toEqual({ row: 1000 + MAX_IMPORT_JOB_ERRORS - 81, reason: 'no_match' });
  });
});
