import { emailMessageId } from './smtp.adapter';
import { smtpFailure } from './smtp-failure';

describe('SMTP failures', () => {
  it('is a bounce when the server refuses the recipient for good, keeping the SMTP code', () => {
    expect(
      smtpFailure({
        code: 'EENVELOPE',
        command: 'RCPT TO',
        responseCode: 550,
        response: '550 5.1.1 User unknown',
      }),
    ).toEqual({ outcome: 'failed', code: 'bounced', providerCode: '550', detail: '550 5.1.1 User unknown' });
  });

  it('retries a deferral and a connection that failed', () => {
    expect(smtpFailure({ command: 'RCPT TO', responseCode: 451, response: '451 4.3.0 later' }).code).toBe(
      'provider_unavailable',
    );
    expect(smtpFailure({ code: 'ESOCKET', message: 'connect ECONNREFUSED' })).toMatchObject({
      code: 'provider_unavailable',
      providerCode: 'ESOCKET',
    });
    expect(smtpFailure({ code: 'ETIMEDOUT', message: 'Greeting never received' }).code).toBe(
      'provider_unavailable',
    );
  });

  it('never retries a message whose end was sent and whose answer never came', () => {
    expect(smtpFailure({ code: 'ETIMEDOUT', command: 'DATA', message: 'Timeout' })).toMatchObject({
      code: 'provider_error',
      providerCode: 'ETIMEDOUT',
      detail: expect.stringContaining('it may have been sent, so it is not sent again'),
    });
  });

  it("blames the channel's settings for a refused login or sender", () => {
    expect(smtpFailure({ code: 'EAUTH', command: 'AUTH PLAIN', responseCode: 535 })).toMatchObject({
      code: 'channel_misconfigured',
      providerCode: '535',
    });
    expect(smtpFailure({ code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 553 }).code).toBe(
      'channel_misconfigured',
    );
  });

  it('makes Message-IDs in the domain of the sender', () => {
    expect(emailMessageId('msg_1', 'Shop <news@shop.example>')).toBe('<msg_1@shop.example>');
    expect(emailMessageId('msg_1', 'news@shop.example')).toBe('<msg_1@shop.example>');
  });
});
