import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ImportJobView } from './import-progress-bar';
import { showImports } from './imports.command';

const NOW = new Date('2026-05-01T12:01:00.000Z');

function view(id: number, fields: Partial<ImportJobView> = {}): ImportJobView {
  return {
    id,
    workspace_id: 3,
    status: 'running',
    rows_total: 1000,
    rows_processed: 600,
    rows_skipped: 0,
    started_at: '2026-05-01T12:00:00.000Z',
    finished_at: null,
    ...fields,
  };
}

/** The segments service's internal list, answering from `lists` in turn, and job reads from `finals`. */
class FakeSegments {
  readonly asked: Array<{ url: string; workspace: string | undefined }> = [];
  private server: Server | undefined;

  constructor(
    private readonly lists: ImportJobView[][],
    private readonly finals: Record<number, ImportJobView> = {},
  ) {}

  async start(): Promise<string> {
    this.server = createServer((request: IncomingMessage, response) => {
      const workspace = request.headers['x-workspace-id'] as string | undefined;
      this.asked.push({ url: request.url ?? '', workspace });
      const one = /^\/internal\/v1\/audience-import\/jobs\/(\d+)$/.exec(request.url ?? '');
      const body = one
        ? { data: this.finals[Number(one[1])] }
        : { data: this.lists.length > 1 ? this.lists.shift() : this.lists[0], meta: { last_page: 1 } };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

function output(): { write(text: string): boolean; text: () => string } {
  let text = '';
  return {
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
    text: () => text,
  };
}

describe('ops imports', () => {
  it('draws a bar per job queued or running, of one workspace when asked', async () => {
    const segments = new FakeSegments([
      [view(1), view(2, { status: 'queued', rows_processed: 0, started_at: null })],
    ]);
    const url = await segments.start();
    const out = output();
    try {
      expect(
        await showImports({ segmentsUrl: url, workspace: 3, watch: false, json: false, out, now: () => NOW }),
      ).toBe(0);
    } finally {
      await segments.stop();
    }
    expect(out.text().split('\n')).toEqual([
      expect.stringMatching(
        /^ws 3 {2}job 1 {2}running .* {2}60% \| 600\/1,000 rows \| 10 rows\/s \| ETA 40s$/,
      ),
      expect.stringMatching(/^ws 3 {2}job 2 {2}queued .* 0% \| 0\/1,000 rows \| - rows\/s \| ETA -$/),
      '',
    ]);
    expect(segments.asked).toEqual([
      { url: '/internal/v1/audience-import/jobs?status=queued,running&per_page=100&page=1', workspace: '3' },
    ]);
  });

  it('says so when nothing is queued or running', async () => {
    const segments = new FakeSegments([[]]);
    const url = await segments.start();
    const out = output();
    try {
      await showImports({ segmentsUrl: url, watch: false, json: false, out, now: () => NOW });
    } finally {
      await segments.stop();
    }
    expect(out.text()).toBe('no import is queued or running\n');
    expect(segments.asked[0]!.workspace).toBeUndefined();
  });

  it('watching, draws again until no job is left, showing how each one ended', async () => {
    const done = view(1, {
      status: 'completed',
      rows_processed: 1000,
      finished_at: '2026-05-01T12:00:50.000Z',
    });
    const segments = new FakeSegments([[view(1)], [view(1, { rows_processed: 900 })], []], { 1: done });
    const url = await segments.start();
    const out = output();
    try {
      await showImports({ segmentsUrl: url, watch: true, json: false, intervalMs: 5, out, now: () => NOW });
    } finally {
      await segments.stop();
    }
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringContaining(' 60% | 600/1,000 rows'),
      expect.stringContaining(' 90% | 900/1,000 rows'),
      expect.stringMatching(
        /^ws 3 {2}job 1 {2}completed .* 100% \| 1,000\/1,000 rows \| 20 rows\/s \| done$/,
      ),
      'no import is queued or running',
    ]);
  });

  it('prints one JSON line per job with its pace', async () => {
    const segments = new FakeSegments([[view(1)]]);
    const url = await segments.start();
    const out = output();
    try {
      await showImports({ segmentsUrl: url, watch: false, json: true, out, now: () => NOW });
    } finally {
      await segments.stop();
    }
    expect(JSON.parse(out.text())).toMatchObject({ id: 1, rows_per_second: 10, eta_seconds: 40 });
  });
});
