import { addressFilter, normaliseAddress, senderAddress, suppressionId } from './suppression-address';

describe('suppression addresses', () => {
  it('keeps phone numbers of phone channels in E.164, as contacts hold them', () => {
    for (const raw of ['+44 7700 900123', '0044 7700 900123', '447700900123', ' +44 (7700) 900-123 ']) {
      expect(normaliseAddress('sms', raw)).toEqual({ ok: true, address: '+447700900123' });
    }
    expect(normaliseAddress('whatsapp', '+15550001234')).toEqual({ ok: true, address: '+15550001234' });
  });

  it('refuses what is not a possible phone number on a phone channel', () => {
    for (const raw of ['12', 'ann@example.com', '+1 555 CALL NOW']) {
      expect(normaliseAddress('rcs', raw)).toMatchObject({ ok: false });
    }
  });

  it('keeps email addresses in lower case and refuses anything else for email', () => {
    expect(normaliseAddress('email', ' Ann@Example.COM ')).toEqual({ ok: true, address: 'ann@example.com' });
    expect(normaliseAddress('email', 'ann')).toMatchObject({ ok: false });
    expect(normaliseAddress('email', 'a b@example.com')).toMatchObject({ ok: false });
  });

  it('keeps linked channel ids as sent, without white space', () => {
    expect(normaliseAddress('telegram', ' 777001 ')).toEqual({ ok: true, address: '777001' });
    expect(normaliseAddress('browser_push', 'a b')).toMatchObject({ ok: false });
    expect(normaliseAddress('messenger', '   ')).toMatchObject({ ok: false });
  });

  it('keeps a sender it cannot normalise under what it sent', () => {
    expect(senderAddress('sms', '+1 555 000 1234')).toBe('+15550001234');
    expect(senderAddress('sms', ' SHORTCODE ')).toBe('SHORTCODE');
  });

  it('reads a filter value as an email or a phone number when it is one', () => {
    expect(addressFilter('B@Example.com')).toBe('b@example.com');
    expect(addressFilter('447700900123')).toBe('+447700900123');
    expect(addressFilter('777001')).toBe('777001');
  });

  it('derives ids of the form sup_ and 32 hex digits, the same for the same parts', () => {
    expect(suppressionId('record', 'manual')).toMatch(/^sup_[0-9a-f]{32}$/);
    expect(suppressionId('record', 'manual')).toBe(suppressionId('record', 'manual'));
    expect(suppressionId('record', 'manual')).not.toBe(suppressionId('record', 'keyword'));
  });
});
