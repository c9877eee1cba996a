import { JsonApiException } from '@cms/http';

import { readSendBody, type SendRoute } from './send-body';

/** The pointers and details of the 422 a body is refused with. */
function refusal(
  body: Record<string, unknown>,
  route: SendRoute = 'send',
): Array<[string | undefined, string]> {
  try {
    readSendBody(body, route);
  } catch (error) {
    if (!(error instanceof JsonApiException)) throw error;
    expect(error.getStatus()).toBe(422);
    return error.errors.map((item) => [item.source?.pointer, item.detail]);
  }
  throw new Error('the body was accepted');
}

describe('reading a notification send body', () => {
  it('reads a send to the audience, test_mode false when absent, and ignores the deprecated fields', () => {
    expect(readSendBody({ notification_id: 7 }, 'send')).toEqual({ notification_id: 7, test_mode: false });
    expect(
      readSendBody(
        { notification_id: 7, test_mode: false, notification_audience: 'a', notification_template: 't' },
        'send',
      ),
    ).toEqual({ notification_id: 7, test_mode: false });
    expect(
      readSendBody(
        { notification_id: 7, notification_audience: null, notification_template: null, test_phone: null },
        'batch-send',
      ),
    ).toEqual({ notification_id: 7, test_mode: false });
  });

  it('answers a test send with its phone in E.164, whatever its separators', () => {
    for (const phone of ['+44 7700 900123', '0044 7700 900123', '447700900123', '+44 (7700) 900-123']) {
      expect(readSendBody({ notification_id: 3, test_mode: true, test_phone: phone }, 'batch-send')).toEqual({
        notification_id: 3,
        test_mode: true,
        test_phone: '+447700900123',
      });
    }
  });

  it('reads test_phone without test_mode for its type only', () => {
    expect(readSendBody({ notification_id: 3, test_phone: 'not a phone' }, 'send')).toEqual({
      notification_id: 3,
      test_mode: false,
    });
    expect(refusal({ notification_id: 3, test_phone: 42 })).toEqual([
      ['/data/attributes/test_phone', 'test_phone must be a string'],
    ]);
  });

  it.each([
    [{}, '/data/attributes/notification_id', 'notification_id is required'],
    [
      { notification_id: null },
      '/data/attributes/notification_id',
      'notification_id must be a positive integer',
    ],
    [
      { notification_id: '7' },
      '/data/attributes/notification_id',
      'notification_id must be a positive integer',
    ],
    [
      { notification_id: 0 },
      '/data/attributes/notification_id',
      'notification_id must be a positive integer',
    ],
    [
      { notification_id: 1.5 },
      '/data/attributes/notification_id',
      'notification_id must be a positive integer',
    ],
    [
      { notification_id: 2 ** 53 },
      '/data/attributes/notification_id',
      'notification_id must be a positive integer',
    ],
    [
      { notification_id: 1, test_mode: 'yes' },
      '/data/attributes/test_mode',
      'test_mode must be true or false',
    ],
    [
      { notification_id: 1, test_mode: null },
      '/data/attributes/test_mode',
      'test_mode must be true or false',
    ],
    [
      { notification_id: 1, test_mode: true },
      '/data/attributes/test_phone',
      'test_phone is required with test_mode',
    ],
    [
      { notification_id: 1, test_mode: true, test_phone: '7700 900123x' },
      '/data/attributes/test_phone',
      'test_phone must be a phone number with its country code, such as +14155550123',
    ],
    [
      { notification_id: 1, test_mode: true, test_phone: `+44 ${'7'.repeat(40)}` },
      '/data/attributes/test_phone',
      'test_phone must be a phone number with its country code, such as +14155550123',
    ],
    [
      { notification_id: 1, notification_audience: 5 },
      '/data/attributes/notification_audience',
      'notification_audience must be a string',
    ],
  ])('refuses %j at its pointer', (body, pointer, detail) => {
    expect(refusal(body)).toEqual([[pointer, detail]]);
  });

  it('takes null for the string fields on batch-send only', () => {
    const body = { notification_id: 1, notification_template: null, test_mode: true, test_phone: null };
    expect(refusal(body, 'send')).toEqual([
      ['/data/attributes/notification_template', 'notification_template must be a string'],
      ['/data/attributes/test_phone', 'test_phone must be a string'],
    ]);
    expect(refusal(body, 'batch-send')).toEqual([
      ['/data/attributes/test_phone', 'test_phone is required with test_mode'],
    ]);
    expect(refusal({ notification_id: 1, notification_audience: 3 }, 'batch-send')).toEqual([
      ['/data/attributes/notification_audience', 'notification_audience must be a string or null'],
    ]);
  });

  it('names every problem of a body at once', () => {
    expect(
      refusal({ notification_audience: [], test_mode: true, test_phone: 'x' }).map(([pointer]) => pointer),
    ).toEqual([
      '/data/attributes/notification_id',
      '/data/attributes/notification_audience',
      '/data/attributes/test_phone',
    ]);
  });
});
