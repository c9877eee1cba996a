import { formatDuration, paceOf, renderImportLine, type ImportJobView } from './import-progress-bar';

const NOW = new Date('2026-05-01T12:01:00.000Z');

function job(fields: Partial<ImportJobView> = {}): ImportJobView {
  return {
    id: 4242,
    workspace_id: 7,
    status: 'running',
    rows_total: 1_000_000,
    rows_processed: 300_000,
    rows_skipped: 0,
    // A minute before NOW: 5,000 rows a second.
    started_at: '2026-05-01T12:00:00.000Z',
    finished_at: null,
    ...fields,
  };
}

describe("an import's progress bar", () => {
  it('shows the rows decided as a bar and a share, the pace since the start, and what is left', () => {
    expect(renderImportLine(job(), NOW)).toBe(
      'ws 7  job 4242  running   [██████░░░░░░░░░░░░░░]  30% | 300,000/1,000,000 rows | 5,000 rows/s | ETA 2m20s',
    );
  });

  it('draws the bar at the width asked, never past full', () => {
    expect(renderImportLine(job({ rows_processed: 500_000 }), NOW, 10)).toContain('[█████░░░░░]  50%');
    expect(renderImportLine(job({ rows_processed: 1_000_000 }), NOW, 4)).toContain('[████] 100%');
  });

  it('says nothing of the pace of a job that did not start, and counts the skipped rows', () => {
    expect(renderImportLine(job({ status: 'queued', rows_processed: 0, started_at: null }), NOW)).toBe(
      'ws 7  job 4242  queued    [░░░░░░░░░░░░░░░░░░░░]   0% | 0/1,000,000 rows | - rows/s | ETA -',
    );
    expect(renderImportLine(job({ rows_skipped: 1_234 }), NOW)).toContain(
      '300,000/1,000,000 rows (1,234 skipped) |',
    );
  });

  it('shows a job that ended as done or failed, with the pace it had', () => {
    const completed = job({
      status: 'completed',
      rows_processed: 1_000_000,
      finished_at: '2026-05-01T12:00:40.000Z',
    });
    expect(renderImportLine(completed, NOW)).toBe(
      'ws 7  job 4242  completed [████████████████████] 100% | 1,000,000/1,000,000 rows | 25,000 rows/s | done',
    );
    expect(renderImportLine(job({ status: 'failed', finished_at: NOW.toISOString() }), NOW)).toMatch(
      /\[██████░{14}\] {2}30% \| .* \| failed$/,
    );
    expect(renderImportLine(job({ rows_total: 0, rows_processed: 0, status: 'completed' }), NOW)).toContain(
      '[████████████████████] 100% | 0/0 rows',
    );
  });

  it('tells the pace and the time left from the start to now', () => {
    expect(paceOf(job(), NOW)).toEqual({ rowsPerSecond: 5000, etaSeconds: 140 });
    expect(paceOf(job({ rows_processed: 0 }), NOW)).toEqual({ rowsPerSecond: 0, etaSeconds: null });
    expect([formatDuration(45), formatDuration(125), formatDuration(3720), formatDuration(0.2)]).toEqual([
      '45s',
      '2m05s',
      '1h02m',
      '1s',
    ]);
  });
});
