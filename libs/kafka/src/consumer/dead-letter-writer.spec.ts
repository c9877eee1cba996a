import { DEAD_LETTER_TYPE, deterministicId, RecordDecodeError, TOPICS, type Envelope } from '@cms/contracts';

import {
  decodedNote,
  FakePostgres,
  kafkaMessage,
  noteEnvelope,
  recordingLogger,
} from '../../test/fixtures/consumer-fakes';
import { DEAD_LETTER_DETAIL_CHARS, DEAD_LETTER_VALUE_BYTES } from '../records/record-bounds';
import {
  DeadLetterWriter,
  errorText,
  type DeadLetterOptions,
  type RejectedRecord,
} from './dead-letter-writer';
import { PoisonRecordError } from './errors';
import type { RecordContext } from './record-context';

interface Emitted {
  topic: string;
  envelope: Envelope;
  key: string | null | undefined;
}

function setUp(options: Partial<DeadLetterOptions> = {}) {
  const db = new FakePostgres();
  const { logger, lines } = recordingLogger();
  const emitted: Emitted[] = [];
  const answered: Array<{ rejected: RejectedRecord; context: RecordContext }> = [];
  const writer = new DeadLetterWriter({
    name: 'notes',
    logger,
    onRejected: async (rejected, context) => void answered.push({ rejected, context }),
    ...options,
  });
  const contextAt = (offset: number, key: string | null = 'w1'): RecordContext => ({
    manager: db.manager,
    topic: 'in',
    partition: 2,
    offset: String(offset),
    key,
    replaying: false,
    emit: (topic, envelope, emittedKey) => void emitted.push({ topic, envelope, key: emittedKey }),
  });
  return { db, lines, emitted, answered, writer, contextAt };
}

describe('DeadLetterWriter', () => {
  it('keeps the whole record, publishes a dead letter and answers the request, all under one error id', async () => {
    const { db, lines, emitted, answered, writer, contextAt } = setUp();
    const envelope = noteEnvelope(1);
    const message = kafkaMessage(5, envelope);
    const record = decodedNote(envelope);
    const context = contextAt(5);

    await writer.write(
      context,
      message,
      record,
      new PoisonRecordError('the note is refused', 'refused_note'),
    );

    const errorId = deterministicId('notes', 'in', 2, '5', 'dead-letter');
    expect(db.deadLetters).toEqual([
      ['notes', 'in', 2, '5', 'w1', message.value, 'refused_note', 'the note is refused'],
    ]);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]!.topic).toBe(TOPICS.deadLetters);
    expect(emitted[0]!.key).toBe('w1');
    expect(emitted[0]!.envelope).toMatchObject({
      type: DEAD_LETTER_TYPE,
      id: errorId,
      source: 'notes',
      workspaceid: 'w1',
      correlationid: envelope.correlationid,
      causationid: envelope.id,
      time: new Date(1764000000000).toISOString(),
      data: {
        consumer: 'notes',
        topic: 'in',
        partition: 2,
        offset: '5',
        key: 'w1',
        value: message.value!.toString('base64'),
        value_bytes: message.value!.length,
        truncated: false,
        reason: 'refused_note',
        detail: 'the note is refused',
      },
    });
    expect(answered).toEqual([
      {
        rejected: { record, raw: message, reason: 'refused_note', detail: 'the note is refused', errorId },
        context,
      },
    ]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'record dead-lettered: the note is refused',
        fields: expect.objectContaining({ offset: '5', error_id: errorId, reason: 'refused_note' }),
      }),
    ]);
  });

  it("names the reason: a decode failure's, a refusal's, handler_failed for anything else", async () => {
    const { db, writer, contextAt } = setUp();
    const message = kafkaMessage(1, 'not json');

    await writer.write(contextAt(1), message, null, new RecordDecodeError('malformed', 'not JSON', ['at 0']));
    await writer.write(contextAt(2), message, null, new PoisonRecordError('no'));
    await writer.write(contextAt(3), message, null, new TypeError('a bug'));
    await writer.write(contextAt(4), message, null, 'a string thrown');

    expect(db.deadLetters.map((row) => [row[6], row[7]])).toEqual([
      ['malformed', 'not JSON; at 0'],
      ['rejected', 'no'],
      ['handler_failed', 'a bug'],
      ['handler_failed', 'a string thrown'],
    ]);
  });

  it('publishes a record that could not be decoded under no workspace, and to the topic it is given', async () => {
    const { emitted, answered, writer, contextAt } = setUp({ deadLetterTopic: 'dead.letters.test' });

    await writer.write(
      contextAt(1, null),
      kafkaMessage(1, '{'),
      null,
      new RecordDecodeError('malformed', 'bad'),
    );

    expect(emitted[0]!.topic).toBe('dead.letters.test');
    expect(emitted[0]!.key).toBeNull();
    expect(emitted[0]!.envelope.workspaceid).toBe('unknown');
    expect(emitted[0]!.envelope.causationid).toBeUndefined();
    expect(emitted[0]!.envelope.data).not.toHaveProperty('key');
    expect(answered[0]!.rejected.record).toBeNull();
  });

  it('copies only the first bytes of a large record into the dead letter, and keeps all of it in the row', async () => {
    const { db, emitted, writer, contextAt } = setUp();
    const message = kafkaMessage(1, 'x'.repeat(DEAD_LETTER_VALUE_BYTES + 10));

    await writer.write(contextAt(1), message, null, new PoisonRecordError('too big'));

    const data = emitted[0]!.envelope.data as { value: string; value_bytes: number; truncated: boolean };
    expect(Buffer.from(data.value, 'base64')).toHaveLength(DEAD_LETTER_VALUE_BYTES);
    expect(data).toMatchObject({ value_bytes: DEAD_LETTER_VALUE_BYTES + 10, truncated: true });
    expect(db.deadLetters[0]![5]).toBe(message.value);
  });

  it('makes the key and the detail storable and cuts the detail short', async () => {
    const { db, writer, contextAt } = setUp();
    const long = `a\u0000b${'c'.repeat(DEAD_LETTER_DETAIL_CHARS)}`;

    await writer.write(contextAt(1, 'k\u0000ey'), kafkaMessage(1, 'x'), null, new Error(long));

    const [, , , , key, , , detail] = db.deadLetters[0]! as string[];
    expect(key).toBe('k\uFFFDey');
    expect(detail).toHaveLength(DEAD_LETTER_DETAIL_CHARS + 1);
    expect(detail!.startsWith('a\uFFFDb')).toBe(true);
    expect(detail!.endsWith('…')).toBe(true);
  });

  it('writes the row alone when bare: no dead-letter record, no answer', async () => {
    const { db, lines, emitted, answered, writer, contextAt } = setUp();

    await writer.write(contextAt(1), kafkaMessage(1, 'x'), null, new PoisonRecordError('no'), true);

    expect(db.deadLetters).toHaveLength(1);
    expect(emitted).toEqual([]);
    expect(answered).toEqual([]);
    expect(lines[0]!.fields).toMatchObject({ bare: true });
    expect(lines[0]!.message).toMatch(/without its dead-letter record or answer/);
  });
});

describe('errorText', () => {
  it('gives a decode failure with its details, an error by its message, anything else as it prints', () => {
    expect(
      errorText(new RecordDecodeError('invalid_data', 'invalid data', ['text: missing', 'seq: NaN'])),
    ).toBe('invalid data; text: missing; seq: NaN');
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText(42)).toBe('42');
  });
});
