/** An import job as the segments service lists it for the operator. */
export interface ImportJobView {
  id: number;
  workspace_id: number;
  status: 'queued' | 'running' | 'completed' | 'failed';
  rows_total: number;
  rows_processed: number;
  rows_skipped: number;
  started_at: string | null;
  finished_at: string | null;
}

/** How fast a job goes and when it should be done, from its start to `now`. */
export interface ImportPace {
  /** Rows decided a second since the job started; null before it started. */
  rowsPerSecond: number | null;
  /** Seconds left at that pace; null when it cannot be told (not started, or nothing decided yet). */
  etaSeconds: number | null;
}

export function paceOf(job: ImportJobView, now: Date): ImportPace {
  if (job.status === 'completed' || job.status === 'failed') {
    const end = job.finished_at ?? now.toISOString();
    const seconds = job.started_at ? (Date.parse(end) - Date.parse(job.started_at)) / 1000 : 0;
    return { rowsPerSecond: seconds > 0 ? job.rows_processed / seconds : null, etaSeconds: 0 };
  }
  if (!job.started_at) return { rowsPerSecond: null, etaSeconds: null };
  const seconds = Math.max((now.getTime() - Date.parse(job.started_at)) / 1000, 0.001);
  const rowsPerSecond = job.rows_processed / seconds;
  if (rowsPerSecond === 0) return { rowsPerSecond: 0, etaSeconds: null };
  return { rowsPerSecond, etaSeconds: Math.max(job.rows_total - job.rows_processed, 0) / rowsPerSecond };
}

/** `45s`, `2m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
}

const count = (value: number): string => value.toLocaleString('en-US');

/**
 * One line per job: its workspace and id, its status, a bar of the rows decided out of its rows, the
 * rows, the pace and what is left, e.g.
 * `ws 7  job 4242  running    [██████░░░░░░░░░░░░░░]  30% | 300,000/1,000,000 rows | 5,000 rows/s | ETA 2m20s`.
 */
export function renderImportLine(job: ImportJobView, now: Date, width = 20): string {
  const fraction = job.rows_total === 0 ? 1 : Math.min(job.rows_processed / job.rows_total, 1);
  const filled = Math.floor(fraction * width);
  const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const { rowsPerSecond, etaSeconds } = paceOf(job, now);
  const rate = rowsPerSecond === null ? '- rows/s' : `${count(Math.round(rowsPerSecond))} rows/s`;
  const left =
    job.status === 'completed'
      ? 'done'
      : job.status === 'failed'
        ? 'failed'
        : etaSeconds === null
          ? 'ETA -'
          : `ETA ${formatDuration(etaSeconds)}`;
  const skipped = job.rows_skipped > 0 ? ` (${count(job.rows_skipped)} skipped)` : '';
  return (
    `ws ${job.workspace_id}  job ${job.id}  ${job.status.padEnd(9)} [${bar}] ${percent} | ` +
    `${count(job.rows_processed)}/${count(job.rows_total)} rows${skipped} | ${rate} | ${left}`
  );
}
