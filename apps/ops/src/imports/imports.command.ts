import { paceOf, renderImportLine, type ImportJobView } from './import-progress-bar';

export interface ImportsOptions {
  /** The segments service's internal address (SEGMENTS_URL). */
  segmentsUrl: string;
  /** Only this workspace's jobs; every workspace's otherwise. */
  workspace?: number;
  /** Redraw until no job is queued or running (or until interrupted). */
  watch: boolean;
  json: boolean;
  /** Between two looks while watching. */
  intervalMs?: number;
  out?: NodeJS.WriteStream | { write(text: string): boolean; isTTY?: boolean };
  now?: () => Date;
}

/** The pages of jobs the list answers at most: 100 a page, so 10,000 jobs in flight. */
const MAX_PAGES = 100;

async function getJson(url: string, workspace: number | undefined): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: workspace === undefined ? {} : { 'x-workspace-id': String(workspace) },
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? String(error);
    throw new Error(`the segments service did not answer at ${new URL(url).origin} (SEGMENTS_URL): ${cause}`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`the segments service answered ${response.status} to ${url}: ${text.slice(0, 500)}`);
  }
  return JSON.parse(text) as unknown;
}

/** The jobs queued or running, oldest first. */
export async function activeImports(segmentsUrl: string, workspace?: number): Promise<ImportJobView[]> {
  const jobs: ImportJobView[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const body = (await getJson(
      `${segmentsUrl}/internal/v1/audience-import/jobs?status=queued,running&per_page=100&page=${page}`,
      workspace,
    )) as { data: ImportJobView[]; meta: { last_page: number } };
    jobs.push(...body.data);
    if (page >= body.meta.last_page) break;
  }
  return jobs;
}

/** A job that left the list: how it ended. */
async function finalState(segmentsUrl: string, job: ImportJobView): Promise<ImportJobView | undefined> {
  try {
    const body = (await getJson(
      `${segmentsUrl}/internal/v1/audience-import/jobs/${job.id}`,
      job.workspace_id,
    )) as {
      data: Omit<ImportJobView, 'workspace_id'>;
    };
    return { ...body.data, workspace_id: job.workspace_id };
  } catch {
    return undefined;
  }
}

function jsonLine(job: ImportJobView, now: Date): string {
  const { rowsPerSecond, etaSeconds } = paceOf(job, now);
  return JSON.stringify({
    ...job,
    rows_per_second: rowsPerSecond === null ? null : Math.round(rowsPerSecond),
    eta_seconds: etaSeconds === null ? null : Math.ceil(etaSeconds),
  });
}

const NOTHING = 'no import is queued or running';

/**
 * `ops imports [--workspace N] [--watch] [--json]`: a progress bar per import job queued or running,
 * from the segments service's internal list. Watching, the bars are drawn again every second (in
 * place on a terminal, every 5 s as new lines otherwise); a job that ends is shown once more as it
 * ended, and the command ends when none is left.
 */
export async function showImports(options: ImportsOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const now = options.now ?? (() => new Date());
  const linesOf = (jobs: ImportJobView[]): string[] => {
    const at = now();
    return jobs.map((job) => (options.json ? jsonLine(job, at) : renderImportLine(job, at)));
  };
  const draw = (jobs: ImportJobView[]): string[] =>
    jobs.length === 0 && !options.json ? [NOTHING] : linesOf(jobs);
  let jobs = await activeImports(options.segmentsUrl, options.workspace);
  if (!options.watch) {
    for (const line of draw(jobs)) out.write(`${line}\n`);
    return 0;
  }
  const tty = out.isTTY === true && !options.json;
  const interval = options.intervalMs ?? (tty || options.json ? 1000 : 5000);
  let interrupted = false;
  let wake: (() => void) | undefined;
  const stop = (): void => {
    interrupted = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let drawn = 0;
  try {
    for (;;) {
      const lines = draw(jobs);
      // On a terminal the previous bars are drawn over; jobs that ended were printed above them.
      if (tty && drawn > 0) out.write(`\u001b[${drawn}F\u001b[J`);
      for (const line of lines) out.write(`${line}\n`);
      drawn = lines.length;
      if (jobs.length === 0 || interrupted) return 0;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, interval);
      });
      if (interrupted) return 0;
      const next = await activeImports(options.segmentsUrl, options.workspace);
      const still = new Set(next.map((job) => job.id));
      const ended = jobs.filter((job) => !still.has(job.id));
      if (ended.length > 0) {
        const finals = (await Promise.all(ended.map((job) => finalState(options.segmentsUrl, job)))).filter(
          (job): job is ImportJobView => job !== undefined,
        );
        if (tty && drawn > 0) out.write(`\u001b[${drawn}F\u001b[J`);
        for (const line of linesOf(finals)) out.write(`${line}\n`);
        drawn = 0;
      }
      jobs = next;
    }
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}
