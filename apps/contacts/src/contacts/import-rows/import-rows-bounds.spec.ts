import {
  CONTACTS_RECORD_TYPES,
  createEnvelope,
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REQUEST_TYPE,
  MAX_IMPORT_ROWS_PER_REQUEST,
  MAX_IMPORT_VALUE_LENGTH,
  RecordTypeRegistry,
  type ContactImportRowsDecidedV1,
  type ImportRowV1,
} from '@cms/contracts';
import { envelopeRecord, MAX_RECORD_BYTES, RecordTooLargeError } from '@cms/kafka';

/**
 * Extensions §6: every record is bounded by construction, below what the topics accept. A chunk of an
 * import is made by the segments service (IMPORT_ROWS_PER_CHUNK rows, each value at most
 * MAX_IMPORT_VALUE_LENGTH characters as MaxLength counts them); its decision by this service.
 */

const registry = new RecordTypeRegistry().register(...CONTACTS_RECORD_TYPES);
const ROWS_PER_CHUNK = 500;

function chunk(value: string, rows = ROWS_PER_CHUNK) {
  const data = {
    job_id: Number.MAX_SAFE_INTEGER,
    chunk: 1999,
    create_new_entities: true,
    contact_limit: 2_500_000,
    rows: Array.from({ length: rows }, (_, index): ImportRowV1 => ({
      row: 999_000 + index,
      phone: value,
      email: value,
      name: value,
      contact_id: Number.MAX_SAFE_INTEGER - index,
    })),
  };
  return createEnvelope({ type: IMPORT_ROWS_REQUEST_TYPE, source: 'segments', workspaceid: '1', data });
}

describe('the records of an import', () => {
  it('carries 500 rows of 1024 characters of 4 bytes each (the widest a character is) within the bound', () => {
    // An emoji is one character to MaxLength and four bytes of UTF-8, written as they are in JSON.
    const widest = '\u{1F600}'.repeat(MAX_IMPORT_VALUE_LENGTH);
    const request = chunk(widest);
    expect(registry.decode(JSON.stringify(request)).data).toMatchObject({ rows: { length: 500 } });
    const bytes = Buffer.byteLength(envelopeRecord('cms.requests.v1', request).value);
    expect(bytes).toBeGreaterThan(6_000_000);
    expect(bytes).toBeLessThanOrEqual(MAX_RECORD_BYTES);
  });

  it('does not carry 500 rows of text JSON escapes (control characters, 6 bytes each): chunks must be cut by bytes', () => {
    const escaped = '\u0001'.repeat(MAX_IMPORT_VALUE_LENGTH);
    const request = chunk(escaped);
    expect(registry.decode(JSON.stringify(request)).data).toMatchObject({ rows: { length: 500 } });
    expect(() => envelopeRecord('cms.requests.v1', request)).toThrow(RecordTooLargeError);
    // Cut at what fits, the same rows go through.
    const perRow = Buffer.byteLength(JSON.stringify(chunk(escaped, 1).data.rows[0]));
    const fitting = Math.floor((MAX_RECORD_BYTES - 4096) / (perRow + 1));
    expect(fitting).toBeGreaterThan(300);
    expect(() => envelopeRecord('cms.requests.v1', chunk(escaped, fitting))).not.toThrow();
  });

  it('decides the most rows a request may hold with a fact far within the bound', () => {
    const rows = Array.from({ length: MAX_IMPORT_ROWS_PER_REQUEST }, (_, index) => ({
      row: 999_000 + index,
      outcome: index % 2 === 0 ? ('created' as const) : ('skipped' as const),
      contact_id: index % 2 === 0 ? Number.MAX_SAFE_INTEGER : null,
      reason: index % 2 === 0 ? null : ('no_identifier' as const),
    }));
    const data: ContactImportRowsDecidedV1 = { job_id: Number.MAX_SAFE_INTEGER, chunk: 1999, rows };
    const fact = createEnvelope({
      type: IMPORT_ROWS_FACT_TYPE,
      source: 'contacts',
      workspaceid: '1',
      subject: String(data.job_id),
      data,
    });
    expect(registry.decode(JSON.stringify(fact)).data).toEqual(data);
    expect(Buffer.byteLength(envelopeRecord('cms.contacts.v1', fact).value)).toBeLessThan(100_000);
  });

  it('refuses a chunk whose rows break the rules of ImportRowV1, naming the first', () => {
    const request = chunk('+14155550100', 3);
    const rows = request.data.rows as unknown as Array<Record<string, unknown>>;
    rows[1]!.email = 'x'.repeat(MAX_IMPORT_VALUE_LENGTH + 1);
    rows[2]!.contact_id = 0;
    expect(() => registry.decode(JSON.stringify(request))).toThrow(
      expect.objectContaining({
        reason: 'invalid_data',
        details: ['rows: rows.1: email must be shorter than or equal to 1024 characters'],
      }),
    );
    for (const broken of [{ row: 0 }, { contact_id: 1.5 }, { phone: 5 }, { name: {} }]) {
      const again = chunk('+14155550100', 1);
      Object.assign(again.data.rows[0]!, broken);
      expect(() => registry.decode(JSON.stringify(again))).toThrow(
        expect.objectContaining({ reason: 'invalid_data' }),
      );
    }
    const element = chunk('+14155550100', 1);
    (element.data as { rows: unknown[] }).rows = ['row'];
    expect(() => registry.decode(JSON.stringify(element))).toThrow(
      expect.objectContaining({ reason: 'invalid_data' }),
    );
  });
});
