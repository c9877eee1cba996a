import { PROVIDER_CHANNEL_TYPES, requiredCredentials } from './provider';

describe('provider credentials', () => {
  it('needs nothing for the sandbox, on every type', () => {
    expect(PROVIDER_CHANNEL_TYPES.sandbox).toHaveLength(8);
    expect(requiredCredentials('sandbox', 'browser_push')).toEqual([]);
  });

  it('points at each missing credential', () => {
    expect(requiredCredentials('telegram', 'telegram', { bot_token: '1:a' })).toEqual([
      {
        pointer: '/data/attributes/credentials/secret_token',
        detail: 'credentials.secret_token is required for provider telegram',
      },
    ]);
    expect(requiredCredentials('smtp', 'email', { host: 'smtp.example', port: 587, from: ' ' })).toEqual([
      expect.objectContaining({ pointer: '/data/attributes/credentials/from' }),
    ]);
    expect(requiredCredentials('web_push', 'browser_push', {}).map((problem) => problem.pointer)).toEqual([
      '/data/attributes/credentials/vapid_public_key',
      '/data/attributes/credentials/vapid_private_key',
      '/data/attributes/credentials/subject',
    ]);
  });

  it('needs an SMTP port to be a TCP port', () => {
    const smtp = { host: 'smtp.example', from: 'a@shop.example' };
    expect(requiredCredentials('smtp', 'email', { ...smtp, port: '587' })).toEqual([]);
    expect(requiredCredentials('smtp', 'email', { ...smtp, port: 70000 })).toEqual([
      {
        pointer: '/data/attributes/credentials/port',
        detail: 'credentials.port must be a TCP port (1-65535)',
      },
    ]);
  });

  it("needs a Telegram secret token that Telegram's setWebhook accepts", () => {
    expect(
      requiredCredentials('telegram', 'telegram', { bot_token: '1:a', secret_token: 'ok_Token-1' }),
    ).toEqual([]);
    expect(
      requiredCredentials('telegram', 'telegram', { bot_token: '1:a', secret_token: 'not ok!' }),
    ).toEqual([
      {
        pointer: '/data/attributes/credentials/secret_token',
        detail: 'credentials.secret_token must be 1-256 characters A-Z, a-z, 0-9, _ or -',
      },
    ]);
  });

  it('takes either a sender number or a messaging service for Twilio', () => {
    const base = { account_sid: 'AC1', auth_token: 't' };
    expect(requiredCredentials('twilio', 'sms', { ...base, from: '+15550001111' })).toEqual([]);
    expect(requiredCredentials('twilio', 'rcs', { ...base, messaging_service_sid: 'MG1' })).toEqual([]);
    expect(requiredCredentials('twilio', 'sms', base)).toEqual([
      {
        pointer: '/data/attributes/credentials/from',
        detail:
          'one of credentials.from or credentials.messaging_service_sid is required for provider twilio',
      },
    ]);
  });

  it("asks Meta for the account of the channel's type", () => {
    const base = { access_token: 'a', app_secret: 's', verify_token: 'v' };
    expect(requiredCredentials('meta', 'whatsapp', base).map((p) => p.pointer)).toEqual([
      '/data/attributes/credentials/phone_number_id',
    ]);
    expect(requiredCredentials('meta', 'messenger', base).map((p) => p.pointer)).toEqual([
      '/data/attributes/credentials/page_id',
    ]);
    expect(requiredCredentials('meta', 'instagram', { ...base, instagram_account_id: '17841' })).toEqual([]);
  });

  it('refuses a provider for a type it does not serve', () => {
    expect(requiredCredentials('twilio', 'email', {})).toEqual([
      { pointer: '/data/attributes/provider', detail: 'provider twilio serves sms, rcs, not email' },
    ]);
  });
});
