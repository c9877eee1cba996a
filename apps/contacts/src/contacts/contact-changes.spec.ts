import { consentFlip, EMPTY_CONTACT, mergeContact } from './contact-changes';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-01T11:00:00.000Z';
const T3 = '2026-01-01T12:00:00.000Z';

describe('mergeContact', () => {
  it('writes every field of a new contact and names what changed', () => {
    const result = mergeContact(
      EMPTY_CONTACT,
      { name: 'Ada', phone: '+14155550123', data: { plan: 'gold' }, marketing_consent: { sms: true } },
      T1,
    );
    expect(result.values).toMatchObject({
      name: 'Ada',
      phone: '+14155550123',
      data: { plan: 'gold' },
      marketing_consent: { sms: true },
    });
    expect(result.changed).toEqual(['name', 'phone', 'data.plan', 'marketing_consent.sms']);
    expect(result.consent).toEqual([{ channel: 'sms', previous: null, granted: true }]);
  });

  it('never lets an older write overwrite a newer value, field by field', () => {
    const newer = mergeContact(EMPTY_CONTACT, { name: 'New', data: { plan: 'gold' } }, T3).values;
    const older = mergeContact(
      newer,
      { name: 'Old', email: 'a@example.com', data: { plan: 'x', city: 'Oslo' } },
      T1,
    );
    expect(older.values).toMatchObject({
      name: 'New',
      email: 'a@example.com',
      data: { plan: 'gold', city: 'Oslo' },
    });
    expect(older.changed).toEqual(['email', 'data.city']);
  });

  it('lets a write of the same instant win, so ties end in log order', () => {
    const first = mergeContact(EMPTY_CONTACT, { name: 'First' }, T2).values;
    expect(mergeContact(first, { name: 'Second' }, T2).values.name).toBe('Second');
  });

  it('keeps the newer time when the value is written again unchanged', () => {
    const first = mergeContact(EMPTY_CONTACT, { name: 'Ada' }, T1).values;
    const again = mergeContact(first, { name: 'Ada' }, T3);
    expect(again.changed).toEqual([]);
    expect(mergeContact(again.values, { name: 'Old' }, T2).values.name).toBe('Ada');
  });

  it('leaves omitted consent channels unchanged', () => {
    const first = mergeContact(EMPTY_CONTACT, { marketing_consent: { sms: true, email: false } }, T1).values;
    const next = mergeContact(first, { marketing_consent: { whatsapp: true } }, T2).values;
    expect(next.marketing_consent).toEqual({ sms: true, email: false, whatsapp: true });
  });

  it('ignores an older consent change arriving late', () => {
    const granted = mergeContact(EMPTY_CONTACT, { marketing_consent: { sms: true } }, T3).values;
    const late = mergeContact(granted, { marketing_consent: { sms: false } }, T1);
    expect(late.consent).toEqual([]);
    expect(late.values.marketing_consent.sms).toBe(true);
  });
});

describe('consentFlip', () => {
  it.each([
    [null, true, 'granted'],
    [false, true, 'granted'],
    [true, false, 'revoked'],
    [null, false, undefined],
  ] as const)('from %j to %j is %j', (previous, granted, flip) => {
    expect(consentFlip({ channel: 'sms', previous, granted })).toBe(flip);
  });
});
