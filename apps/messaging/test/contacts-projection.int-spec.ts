import { CONTACT_FACT_TYPES, createEnvelope, TAG_FACT_TYPES } from '@cms/contracts';

import { MessagingHarness } from './support/messaging.harness';

let harness: MessagingHarness;

beforeAll(async () => {
  harness = await MessagingHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

describe('the contact view (cms.contacts.v1)', () => {
  it('takes each snapshot whole, and follows channel links and unlinks', async () => {
    const ws = harness.workspace();
    const [ada, bob] = [harness.id(), harness.id()];
    await harness.contacts(
      ws,
      { id: ada, name: 'Ada', phone: '+15550001', data: { plan: 'gold', nested: { a: 1 } } },
      { id: bob, name: 'Bob', email: 'bob@example.com' },
    );
    const [created] = await harness.untilContacts([ada], 'created');
    expect(created).toMatchObject({
      workspace_id: String(ws),
      name: 'Ada',
      phone: '+15550001',
      email: null,
      external_id: null,
      data: { plan: 'gold', nested: { a: 1 } },
      marketing_consent: { sms: null, email: null },
      channels: { telegram: null },
    });

    // The whole contact again: fields it no longer has are gone, consent as it now is.
    const updatedAt = new Date(Date.now() + 1000).toISOString();
    await harness.publishContactFacts([
      harness.snapshot(
        ws,
        {
          id: ada,
          name: 'Ada L.',
          email: 'ada@example.com',
          data: { plan: 'silver' },
          marketing_consent: { sms: true },
          updated_at: updatedAt,
        },
        CONTACT_FACT_TYPES.updated,
      ),
      harness.channelLink(ws, { contact_id: ada, channel: 'telegram', external_id: 'tg-1' }),
      // The telegram id moves from Ada to Bob: Ada's link goes, Bob's comes.
      harness.channelLink(ws, {
        contact_id: ada,
        channel: 'telegram',
        external_id: 'tg-1',
        moved_to_contact_id: bob,
      }),
      harness.channelLink(ws, { contact_id: bob, channel: 'telegram', external_id: 'tg-1' }),
      // An unlink of an id the contact no longer holds changes nothing.
      harness.channelLink(ws, {
        contact_id: bob,
        channel: 'messenger',
        external_id: 'm-9',
        moved_to_contact_id: ada,
      }),
    ]);
    const [adaRow, bobRow] = await harness.untilContacts(
      [ada, bob],
      'updated and relinked',
      (rows) => (rows[1]?.channels as Record<string, unknown> | undefined)?.telegram === 'tg-1',
    );
    expect(adaRow).toMatchObject({
      name: 'Ada L.',
      phone: null,
      email: 'ada@example.com',
      data: { plan: 'silver' },
      marketing_consent: { sms: true, email: null },
      channels: { telegram: null, messenger: null },
    });
    expect(bobRow).toMatchObject({ name: 'Bob', channels: { telegram: 'tg-1', messenger: null } });
  });

  it('applies a burst of facts in order, the last snapshot of each contact winning', async () => {
    const ws = harness.workspace();
    const ids = Array.from({ length: 300 }, () => harness.id());
    const facts = ids.flatMap((id, index) => [
      harness.snapshot(ws, { id, name: `first ${index}` }),
      harness.channelLink(ws, { contact_id: id, channel: 'browser_push', external_id: `ps_${index}` }),
      harness.snapshot(
        ws,
        { id, name: `second ${index}`, channels: { browser_push: `ps_${index}` } },
        CONTACT_FACT_TYPES.updated,
      ),
    ]);
    await harness.publishContactFacts(facts);
    const rows = await harness.untilContacts(
      ids,
      'after the burst',
      (found) => found.length === ids.length && found.every((row) => String(row.name).startsWith('second')),
    );
    rows.forEach((row, index) => {
      expect(row).toMatchObject({ name: `second ${index}`, channels: { browser_push: `ps_${index}` } });
    });
  });

  it('ignores a link to a contact it has never seen, and one of another workspace', async () => {
    const ws = harness.workspace();
    const other = harness.workspace();
    const [known, unknown] = [harness.id(), harness.id()];
    await harness.contacts(ws, { id: known, name: 'Known' });
    await harness.publishContactFacts([
      harness.channelLink(ws, { contact_id: unknown, channel: 'telegram', external_id: 'x' }),
      harness.channelLink(other, { contact_id: known, channel: 'telegram', external_id: 'y' }),
      harness.snapshot(ws, { id: unknown, name: 'Later' }),
    ]);
    const [knownRow, laterRow] = await harness.untilContacts([known, unknown], 'with the later one');
    expect(knownRow).toMatchObject({ channels: { telegram: null } });
    expect(laterRow).toMatchObject({ name: 'Later', channels: { telegram: null } });
  });

  it('reads past the facts of the topic it does not keep (a tag fact)', async () => {
    const ws = harness.workspace();
    const id = harness.id();
    const time = new Date().toISOString();
    await harness.publishContactFacts([
      createEnvelope({
        type: TAG_FACT_TYPES.created,
        source: 'contacts',
        workspaceid: String(ws),
        time,
        data: { tag_id: harness.id(), name: 'vip', at: time },
      }),
      harness.snapshot(ws, { id, name: 'After the tag' }),
    ]);
    const [row] = await harness.untilContacts([id], 'after a tag fact');
    expect(row).toMatchObject({ name: 'After the tag' });
  });

  it('is rebuilt from the log row for row', async () => {
    const rows = await harness.kit.projectionRows();
    expect(rows.contacts!.length).toBeGreaterThan(300);
    expect(await harness.kit.projectionRows(await harness.kit.rebuild())).toEqual(rows);
  });
});
