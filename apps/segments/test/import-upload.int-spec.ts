import {
  IMPORT_PATH_PATTERN,
  IMPORT_UPLOAD_TTL_MS,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_ROWS,
} from '@cms/contracts';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';

import type { SegmentsConfig } from '../src/config';
import { SEGMENTS_SERVICE } from '../src/segments.service';

/** IMPORT_UPLOAD_QUOTA_BYTES of this suite; uploads at once are the defaults (2 a workspace, 4 in all). */
const QUOTA_BYTES = 64 * 1024;

let harness: ServiceHarness<SegmentsConfig>;
let service: RunningService;
let lastWorkspace = 0;

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: SEGMENTS_SERVICE,
    prefix: 'seg-upl',
    // Expired uploads are looked for often enough for a test to see them go.
    // The quota is small enough for a test to reach; every other test sends one file a workspace.
    env: { IMPORT_UPLOAD_CLEANUP_POLL_MS: '100', IMPORT_UPLOAD_QUOTA_BYTES: String(QUOTA_BYTES) },
  });
  service = await harness.startService();
});

afterAll(async () => {
  await harness?.stop();
});

/** A workspace of its own for each test. */
function workspace(): number {
  lastWorkspace += 1;
  return lastWorkspace;
}

type Body = string | Buffer | AsyncIterable<Uint8Array>;

interface Answer {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown>;
    errors?: Array<{ status: string; detail: string; source?: { pointer: string } }>;
  };
}

/** POSTs a file to the internal port as the gateway streams it. */
async function upload(workspaceId: number, body: Body, contentType = 'text/csv'): Promise<Answer> {
  const response = await fetch(`${service.url}/internal/v1/audience-import/uploads`, {
    method: 'POST',
    headers: { 'x-workspace-id': String(workspaceId), 'content-type': contentType },
    body: body as RequestInit['body'],
    duplex: 'half',
  } as RequestInit);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Answer['body'],
  };
}

async function read(path: string, workspaceId: number): Promise<Answer> {
  const response = await fetch(`${service.url}/internal/v1/audience-import/uploads/${path}`, {
    headers: { 'x-workspace-id': String(workspaceId) },
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Answer['body'],
  };
}

/** The places of the workspace's uploads in progress that are taken (the service's advisory locks). */
async function placesTaken(workspaceId: number): Promise<number> {
  const [row] = (await harness.db.query(
    `SELECT count(*)::int AS count FROM pg_locks l
       JOIN generate_series(0, 9) AS slot
         ON ((l.classid::bigint << 32) | l.objid::bigint)
            = hashtextextended(current_schema() || ':import-upload:' || $1 || ':' || slot, 0)
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1`,
    [String(workspaceId)],
  )) as Array<{ count: number }>;
  return row!.count;
}

async function untilTaken(workspaceId: number, count: number): Promise<void> {
  await eventually(`${count} uploads of workspace ${workspaceId} in progress`, async () =>
    (await placesTaken(workspaceId)) === count ? true : undefined,
  );
}

async function storedRows(path: string): Promise<Array<{ row: number; cells: string[] }>> {
  return harness.db.query('SELECT "row", cells FROM import_upload_rows WHERE path = $1 ORDER BY "row"', [
    path,
  ]);
}

async function uploadsOf(workspaceId: number): Promise<number> {
  const [{ count }] = (await harness.db.query(
    'SELECT count(*)::int AS count FROM import_uploads WHERE workspace_id = $1',
    [workspaceId],
  )) as Array<{ count: number }>;
  return count;
}

/** Rows no upload owns: what a refused or broken upload would leave behind. */
async function orphanRows(): Promise<number> {
  const [{ count }] = (await harness.db.query(
    `SELECT count(*)::int AS count FROM import_upload_rows r
      WHERE NOT EXISTS (SELECT 1 FROM import_uploads u WHERE u.path = r.path)`,
  )) as Array<{ count: number }>;
  return count;
}

/** A refusal of the file as the client reads it, and nothing stored for the workspace. */
async function expectRefused(
  workspaceId: number,
  answer: Answer,
  status: number,
  detail: RegExp,
): Promise<void> {
  expect(answer.status).toBe(status);
  expect(answer.body.errors).toEqual([
    expect.objectContaining({
      status: String(status),
      detail: expect.stringMatching(detail),
      source: { pointer: '/data/attributes/file' },
    }),
  ]);
  expect(await uploadsOf(workspaceId)).toBe(0);
  expect(await orphanRows()).toBe(0);
}

/** `count` lines made by `line`, handed over in chunks of about 1 MiB as a client's upload arrives. */
async function* lines(header: string, count: number, line: (row: number) => string): AsyncIterable<Buffer> {
  let chunk = `${header}\n`;
  for (let row = 1; row <= count; row += 1) {
    chunk += `${line(row)}\n`;
    if (chunk.length >= 1024 * 1024) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  }
  yield Buffer.from(chunk);
}

describe('POST /internal/v1/audience-import/uploads', () => {
  it('stores every row under a new path and answers the preview: columns, first five rows, count, separator', async () => {
    const ws = workspace();
    const file = [
      '\uFEFFphone,email,Full Name,notes',
      '+15005550001,ann@example.com,Ann,"likes, commas"',
      '+15005550002,bob@example.com,"Bob ""The Builder""",back\\slash',
      '+15005550003,cy@example.com,Cy,"two',
      'lines"',
      '',
      '+15005550004,di@example.com,Dï Ünïcode,tab\there',
      '+15005550005,ed@example.com,Ed,{braces},',
      '+15005550006,fa@example.com,Fa',
      '+15005550007,,,',
    ].join('\r\n');
    const started = Date.now();

    const answer = await upload(ws, file);

    expect(answer.status).toBe(201);
    const preview = answer.body.data!;
    expect(Object.keys(preview).sort()).toEqual(['columns', 'delimiter', 'path', 'row_count', 'sample_rows']);
    expect(preview.path).toMatch(IMPORT_PATH_PATTERN);
    expect(preview).toMatchObject({
      columns: ['phone', 'email', 'Full Name', 'notes'],
      delimiter: ',',
      row_count: 7,
      sample_rows: [
        { phone: '+15005550001', email: 'ann@example.com', 'Full Name': 'Ann', notes: 'likes, commas' },
        {
          phone: '+15005550002',
          email: 'bob@example.com',
          'Full Name': 'Bob "The Builder"',
          notes: 'back\\slash',
        },
        { phone: '+15005550003', email: 'cy@example.com', 'Full Name': 'Cy', notes: 'two\r\nlines' },
        { phone: '+15005550004', email: 'di@example.com', 'Full Name': 'Dï Ünïcode', notes: 'tab\there' },
        // A trailing separator (an empty cell past the last column) is dropped.
        { phone: '+15005550005', email: 'ed@example.com', 'Full Name': 'Ed', notes: '{braces}' },
      ],
    });
    const path = String(preview.path);
    expect(await storedRows(path)).toEqual([
      { row: 1, cells: ['+15005550001', 'ann@example.com', 'Ann', 'likes, commas'] },
      { row: 2, cells: ['+15005550002', 'bob@example.com', 'Bob "The Builder"', 'back\\slash'] },
      { row: 3, cells: ['+15005550003', 'cy@example.com', 'Cy', 'two\r\nlines'] },
      { row: 4, cells: ['+15005550004', 'di@example.com', 'Dï Ünïcode', 'tab\there'] },
      { row: 5, cells: ['+15005550005', 'ed@example.com', 'Ed', '{braces}'] },
      // A short row is completed with empty cells.
      { row: 6, cells: ['+15005550006', 'fa@example.com', 'Fa', ''] },
      { row: 7, cells: ['+15005550007', '', '', ''] },
    ]);
    const [stored] = (await harness.db.query('SELECT * FROM import_uploads WHERE path = $1', [
      path,
    ])) as Array<Record<string, unknown>>;
    expect(stored).toMatchObject({
      workspace_id: String(ws),
      columns: ['phone', 'email', 'Full Name', 'notes'],
      delimiter: ',',
      row_count: 7,
      sample_rows: preview.sample_rows,
    });
    const createdAt = (stored!.created_at as Date).getTime();
    expect(createdAt).toBeGreaterThanOrEqual(started - 1000);
    expect((stored!.expires_at as Date).getTime() - createdAt).toBe(IMPORT_UPLOAD_TTL_MS);
  });

  it.each([
    ['semicolons', ';', 'phone;email;city\n+15005550001;a@example.com;Paris, France\n'],
    ['tabs', '\t', 'phone\temail\tcity\n+15005550001\ta@example.com\tParis, France; FR\n'],
    [
      'commas (a quoted semicolon in the header does not count)',
      ',',
      '"a;b;c",email,city\nx,a@example.com,Paris\n',
    ],
  ])('tells a file separated by %s from its header line', async (_name, delimiter, file) => {
    const answer = await upload(workspace(), file);

    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ delimiter, row_count: 1 });
    const rows = await storedRows(String(answer.body.data!.path));
    expect(rows[0]!.cells).toHaveLength(3);
    expect(rows[0]!.cells[2]).toMatch(/^Paris/);
  });

  it('takes a file of one column, blank rows, a header without data rows, a last line without a line break', async () => {
    const single = await upload(workspace(), 'email\na@example.com\nb@example.com');
    expect(single.body.data).toMatchObject({ columns: ['email'], delimiter: ',', row_count: 2 });

    // Blank lines before the header, and rows of empty cells, are no rows.
    const blanks = await upload(workspace(), '\uFEFF\r\n\nphone;email\n;\n1;a@example.com\n ; \n;;\n');
    expect(blanks.body.data).toMatchObject({ columns: ['phone', 'email'], delimiter: ';', row_count: 1 });
    expect(await storedRows(String(blanks.body.data!.path))).toEqual([
      { row: 1, cells: ['1', 'a@example.com'] },
    ]);

    const headerOnly = await upload(workspace(), 'phone;email\r\n');
    expect(headerOnly.status).toBe(201);
    expect(headerOnly.body.data).toMatchObject({
      columns: ['phone', 'email'],
      delimiter: ';',
      row_count: 0,
      sample_rows: [],
    });
  });

  it.each([
    ['is empty', '', /file is empty/],
    ['holds only a byte order mark and blank lines', '\uFEFF\n\n', /file is empty/],
    ['has a column without a name', 'phone,,email\n1,2,3\n', /Column 2 of the header row has no name/],
    ['has a column named only with spaces', 'phone,  \n1,2\n', /Column 2 of the header row has no name/],
    [
      'names a column twice',
      'email,phone,email\n1,2,3\n',
      /names the column "email" twice \(columns 1 and 3\)/,
    ],
  ])('refuses a file whose header row %s with 422, storing nothing', async (_name, file, detail) => {
    const ws = workspace();
    await expectRefused(ws, await upload(ws, file), 422, detail);
  });

  it('refuses a row with a value past the last column, naming the row, and stores none of the file', async () => {
    const ws = workspace();
    const answer = await upload(
      ws,
      'phone,email\n1,a@example.com\n2,b@example.com,,surprise\n3,c@example.com\n',
    );
    await expectRefused(ws, answer, 422, /Data row 2 has 4 cells but the header row names 2 columns/);
  });

  it.each([
    ['is not UTF-8 (Latin-1)', Buffer.from('name\nJos\xe9\n', 'latin1'), /not valid UTF-8/],
    [
      'ends in the middle of a UTF-8 character',
      Buffer.concat([Buffer.from('name\nJos'), Buffer.from([0xc3])]),
      /not valid UTF-8/,
    ],
    ['holds U+0000', 'name\nA\u0000B\n', /U\+0000/],
    ['leaves a quote open', 'name,notes\nAnn,"never closed\n', /not valid CSV/],
  ])('refuses a file that %s with 422', async (_name, file, detail) => {
    const ws = workspace();
    await expectRefused(ws, await upload(ws, file), 422, detail);
  });

  it('refuses a body that is not text/csv with 415 before reading it', async () => {
    const ws = workspace();
    const answer = await upload(ws, '{"file": "phone\\n1"}', 'application/json');
    expect(answer.status).toBe(415);
    expect(answer.body.errors![0]!.detail).toMatch(/send text\/csv/);
    expect(await uploadsOf(ws)).toBe(0);
  });

  it('refuses more than 1,000,000 data rows with 422, storing none of them', async () => {
    const ws = workspace();
    const answer = await upload(
      ws,
      lines('n', MAX_IMPORT_ROWS + 1, (row) => String(row % 10)),
    );
    await expectRefused(ws, answer, 422, /more than 1000000 data rows/);
  });

  it('refuses a file over 50 MiB with 413 and closes the connection, storing nothing', async () => {
    const ws = workspace();
    // A mebibyte of rows to store, then blank rows (parsed, stored as nothing) past the limit: the
    // limit is the file's size, whatever it holds, and the rows stored before it are rolled back.
    const rows = Buffer.from(`name\n${`${'x'.repeat(1023)}\n`.repeat(1024)}`);
    const blank = Buffer.from(`${' '.repeat(1023)}\n`.repeat(1024));
    async function* oversized(): AsyncIterable<Buffer> {
      yield rows;
      for (let sent = rows.length; sent + blank.length <= MAX_IMPORT_FILE_BYTES; sent += blank.length)
        yield blank;
      yield blank;
    }
    const answer = await upload(ws, oversized());
    await expectRefused(ws, answer, 413, /larger than 52428800 bytes/);
    expect(answer.headers.get('connection')).toBe('close');
  });

  it('stores 1,000,000 rows of a 50 MiB file, the largest the rules take', async () => {
    const ws = workspace();
    const line = (row: number): string => {
      const id = String(row).padStart(7, '0');
      return `+1500${id},u${id}@example.com,"P ${id}",zzzzz`;
    };
    let bytes = 0;
    async function* counted(): AsyncIterable<Buffer> {
      for await (const chunk of lines('phone,email,name,note', MAX_IMPORT_ROWS, line)) {
        bytes += chunk.length;
        yield chunk as Buffer;
      }
    }

    const answer = await upload(ws, counted());

    expect(bytes).toBeGreaterThan(MAX_IMPORT_FILE_BYTES - 1024 * 1024);
    expect(bytes).toBeLessThanOrEqual(MAX_IMPORT_FILE_BYTES);
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ row_count: MAX_IMPORT_ROWS, delimiter: ',' });
    const path = String(answer.body.data!.path);
    const [summary] = (await harness.db.query(
      `SELECT count(*)::int AS count, min("row") AS first, max("row") AS last FROM import_upload_rows WHERE path = $1`,
      [path],
    )) as Array<{ count: number; first: number; last: number }>;
    expect(summary).toEqual({ count: MAX_IMPORT_ROWS, first: 1, last: MAX_IMPORT_ROWS });
    const [last] = (await harness.db.query(
      'SELECT cells FROM import_upload_rows WHERE path = $1 AND "row" = $2',
      [path, MAX_IMPORT_ROWS],
    )) as Array<{ cells: string[] }>;
    expect(last!.cells).toEqual(['+15001000000', 'u1000000@example.com', 'P 1000000', 'zzzzz']);
  }, 120_000);

  it('keeps nothing of an upload whose client went away in the middle of it', async () => {
    const ws = workspace();
    const controller = new AbortController();
    async function* halfway(): AsyncIterable<Buffer> {
      yield* lines('phone', 20_000, (row) => String(row)) as AsyncIterable<Buffer>;
      controller.abort();
      await new Promise(() => undefined);
    }
    await expect(
      fetch(`${service.url}/internal/v1/audience-import/uploads`, {
        method: 'POST',
        headers: { 'x-workspace-id': String(ws), 'content-type': 'text/csv' },
        body: halfway() as unknown as RequestInit['body'],
        duplex: 'half',
        signal: controller.signal,
      } as RequestInit),
    ).rejects.toThrow();

    await eventually('the broken upload to be rolled back', async () => (await orphanRows()) === 0, 10_000);
    // Its transaction is over: the place it took among the workspace's uploads is free again.
    await untilTaken(ws, 0);
    expect(await uploadsOf(ws)).toBe(0);
    // The service still takes uploads.
    expect((await upload(ws, 'phone\n1\n')).status).toBe(201);
  });
});

describe('GET /internal/v1/audience-import/uploads/:path', () => {
  it('answers the upload in its own workspace only, and 404 once it expired', async () => {
    const ws = workspace();
    const created = await upload(ws, 'phone;name\n1;A\n2;B\n');
    const path = String(created.body.data!.path);

    const found = await read(path, ws);
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual({
      path,
      columns: ['phone', 'name'],
      row_count: 2,
      delimiter: ';',
      expires_at: expect.any(String),
    });
    expect(Date.parse(String(found.body.data!.expires_at)) - Date.now()).toBeGreaterThan(
      IMPORT_UPLOAD_TTL_MS - 60_000,
    );

    expect((await read(path, workspace())).status).toBe(404);
    expect((await read('upl_0123456789abcdef0123456789abcdef', ws)).status).toBe(404);
    expect((await read('not-a-path', ws)).status).toBe(404);

    await harness.db.query(
      "UPDATE import_uploads SET expires_at = now() + interval '1 hour' WHERE path = $1",
      [path],
    );
    expect((await read(path, ws)).status).toBe(200);
    await harness.db.query(
      "UPDATE import_uploads SET expires_at = now() - interval '1 second' WHERE path = $1",
      [path],
    );
    expect((await read(path, ws)).status).toBe(404);
  });

  it('needs the workspace header (400)', async () => {
    const response = await fetch(
      `${service.url}/internal/v1/audience-import/uploads/upl_0123456789abcdef0123456789abcdef`,
    );
    expect(response.status).toBe(400);
  });
});

describe('expired uploads', () => {
  it('are removed with their rows, except one a queued import job still reads', async () => {
    const ws = workspace();
    const paths: string[] = [];
    // One after the other: a workspace has two uploads in progress at most.
    for (const file of ['phone\n1\n2\n', 'phone\n3\n4\n5\n', 'phone\n6\n']) {
      paths.push(String((await upload(ws, file)).body.data!.path));
    }
    const [kept, removed, live] = paths;
    await harness.db.query(
      `INSERT INTO import_jobs (id, workspace_id, audience_id, path, mapping, create_new_entities, contact_limit,
         id_blocks, status, rows_total, rows_processed, contacts_created, contacts_matched, rows_skipped, errors, created_at)
       VALUES ($1, $2, 1, $3, '{}', false, 1000, '{}', 'queued', 2, 0, 0, 0, 0, '[]', now())`,
      [Date.now(), ws, kept],
    );
    await harness.db.query(
      "UPDATE import_uploads SET expires_at = now() - interval '1 minute' WHERE path = ANY($1)",
      [[kept, removed]],
    );

    await eventually(
      'the expired upload to be removed',
      async () => (await storedRows(removed!)).length === 0 && (await uploadsOf(ws)) === 2,
      // The worker looks every 100 ms; the bound is for a machine busy with a cold broker and stack.
      30_000,
    );
    expect((await storedRows(kept!)).length).toBe(2);
    expect((await storedRows(live!)).length).toBe(1);
  });
});

describe('what uploads may take of the service', () => {
  /** A file that streams its header, then waits until `release` is called to send its last row. */
  function heldFile(): { body: AsyncIterable<Uint8Array>; release(): void } {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    async function* body(): AsyncIterable<Uint8Array> {
      yield Buffer.from('phone\n+14155550100\n');
      await released;
      yield Buffer.from('+14155550101\n');
    }
    return { body: body(), release: () => release() };
  }

  function refusal(answer: Answer): [number, string | null, string | undefined] {
    return [answer.status, answer.headers.get('retry-after'), answer.body.errors?.[0]?.source?.pointer];
  }

  it('takes two uploads of a workspace at once and four in all, answering 429 with Retry-After past either', async () => {
    const [busy, other, third] = [workspace(), workspace(), workspace()];
    const held = [heldFile(), heldFile(), heldFile(), heldFile()];
    const pending = [upload(busy, held[0]!.body), upload(busy, held[1]!.body), upload(other, held[2]!.body)];
    try {
      await untilTaken(busy, 2);
      await untilTaken(other, 1);
      const thirdOfBusy = await upload(busy, 'phone\n+14155550102\n');
      expect(refusal(thirdOfBusy)).toEqual([429, '10', '/data/attributes/file']);
      expect(thirdOfBusy.body.errors![0]!.detail).toContain('2 uploads in progress');

      pending.push(upload(third, held[3]!.body));
      await untilTaken(third, 1);
      const fifth = await upload(workspace(), 'phone\n+14155550103\n');
      expect(refusal(fifth)).toEqual([429, '5', '/data/attributes/file']);
      expect(fifth.body.errors![0]!.detail).toContain('4 uploads at once');
    } finally {
      // A failed expectation must not leave the service waiting on them.
      for (const file of held) file.release();
    }
    const answers = await Promise.all(pending);
    expect(answers.map((answer) => [answer.status, answer.body.data?.row_count])).toEqual(
      Array.from({ length: 4 }, () => [201, 2]),
    );
    // Places free again once uploads end.
    expect((await upload(busy, 'phone\n+14155550104\n')).status).toBe(201);
  });

  it("refuses a workspace's uploads with 429 once its files not expired yet reach the quota, until they expire", async () => {
    const ws = workspace();
    const big = `phone\n${Array.from({ length: Math.ceil(QUOTA_BYTES / 13) }, (_, n) => `+1415${String(n).padStart(7, '0')}`).join('\n')}\n`;
    const first = await upload(ws, big);
    expect(first.status).toBe(201);
    const [stored] = (await harness.db.query(
      'SELECT bytes::int AS bytes FROM import_uploads WHERE path = $1',
      [first.body.data!.path],
    )) as Array<{ bytes: number }>;
    expect(stored!.bytes).toBe(Buffer.byteLength(big));
    expect(stored!.bytes).toBeGreaterThanOrEqual(QUOTA_BYTES);

    const refused = await upload(ws, 'phone\n+14155550105\n');
    expect(refused.status).toBe(429);
    expect(refused.body.errors![0]!.detail).toContain('uploads made in the last 24 hours');
    // Until the first upload expires, about a day from now.
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(IMPORT_UPLOAD_TTL_MS / 1000 - 120);
    expect(wait).toBeLessThanOrEqual(IMPORT_UPLOAD_TTL_MS / 1000);
    // Another workspace is not held to it.
    expect((await upload(workspace(), 'phone\n+14155550106\n')).status).toBe(201);

    await harness.db.query(
      "UPDATE import_uploads SET expires_at = now() - interval '1 second' WHERE path = $1",
      [first.body.data!.path],
    );
    expect((await upload(ws, 'phone\n+14155550107\n')).status).toBe(201);
  });
});
