import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { SendMessageBody } from './message.bodies';
import { MessageSendRequestedV1 } from './messaging.records';

/** What only the services say of a message: a workflow's step and events, a notification send's, a bot's. */
const SERVICE_FIELDS = {
  workflow: { id: 7, name: 'Welcome', run_id: 41, step: 'hello' },
  event: { id: 3, name: 'order_placed', data: { order: 'A-9' } },
  waited_event: { name: 'order_paid', data: { total: 12 } },
  campaign_id: 42,
  test: true,
  bot: { id: 3, name: 'Concierge', conversation_id: 17 },
};

/** A bot's answer as written: its text on one step naming a channel by id. */
const TEXT_BODY = { contact_id: 5, route: [{ channel_id: 4 }], text: 'Thanks, {{ we }} got it.' };

const BODY = { contact_id: 5, route: [{ channel: 'sms', template_id: 9 }] };

/**
 * Each refused field (`route/0/template_id` inside a nested one) and the rules it failed, as the
 * gateway's validation pipe finds them (unknown fields refused, not dropped): its 422 points at
 * `/data/attributes/<field>` for each.
 */
function refusals(schema: new () => object, body: object): Array<[string, string[]]> {
  const flat = (errors: ValidationError[], at: string): Array<[string, string[]]> =>
    errors.flatMap((error) =>
      error.children !== undefined && error.children.length > 0
        ? flat(error.children, `${at}${error.property}/`)
        : [[`${at}${error.property}`, Object.keys(error.constraints ?? {})] as [string, string[]]],
    );
  return flat(
    validateSync(plainToInstance(schema, body), { whitelist: true, forbidNonWhitelisted: true }),
    '',
  );
}

describe('SendMessageBody', () => {
  it('refuses what only a workflow or a notification send says, each field on its own', () => {
    expect(refusals(SendMessageBody, { ...BODY, ...SERVICE_FIELDS })).toEqual([
      ['workflow', ['whitelistValidation']],
      ['event', ['whitelistValidation']],
      ['waited_event', ['whitelistValidation']],
      ['campaign_id', ['whitelistValidation']],
      ['test', ['whitelistValidation']],
      ['bot', ['whitelistValidation']],
    ]);
    // `test: false` is no more the customer's to say than `test: true`.
    expect(refusals(SendMessageBody, { ...BODY, test: false })).toEqual([['test', ['whitelistValidation']]]);
  });

  it('refuses a text, and a step without a template, whatever else the body says', () => {
    expect(refusals(SendMessageBody, TEXT_BODY)).toEqual([
      ['text', ['whitelistValidation']],
      ['route/0/template_id', ['max', 'min', 'isInt']],
    ]);
  });
});

describe('MessageSendRequestedV1', () => {
  it("takes a workflow's and a notification send's fields on the request record", () => {
    expect(refusals(MessageSendRequestedV1, { ...BODY, ...SERVICE_FIELDS })).toEqual([]);
  });

  it("refuses a campaign that is no send's id and a test mark that is no boolean", () => {
    expect(refusals(MessageSendRequestedV1, { ...BODY, campaign_id: 0, test: 'yes' })).toEqual([
      ['campaign_id', ['min']],
      ['test', ['isBoolean']],
    ]);
  });

  it("takes a bot's text on a route of one step naming its channel by id", () => {
    expect(refusals(MessageSendRequestedV1, { ...TEXT_BODY, bot: SERVICE_FIELDS.bot })).toEqual([]);
  });

  it('refuses a text beside a template, on a channel named by type, on two steps, or out of bounds', () => {
    const refused = (body: object) => refusals(MessageSendRequestedV1, body);
    const isRoute = [['route', ['isRouteOfItsContent']]];
    expect(refused({ ...TEXT_BODY, route: [{ channel_id: 4, template_id: 9 }] })).toEqual(isRoute);
    expect(refused({ ...TEXT_BODY, route: [{ channel: 'sms' }] })).toEqual(isRoute);
    expect(refused({ ...TEXT_BODY, route: [{ channel_id: 4 }, { channel_id: 5 }] })).toEqual(isRoute);
    expect(refused({ ...TEXT_BODY, text: '' })).toEqual([['text', ['isLength']]]);
    expect(refused({ ...TEXT_BODY, text: null })).toEqual([['text', ['isLength', 'isString']]]);
    expect(refused({ ...TEXT_BODY, text: 'x'.repeat(4097) })).toEqual([['text', ['isLength']]]);
  });

  it('refuses a step without a template when there is no text, and a bot that names no conversation', () => {
    expect(refusals(MessageSendRequestedV1, { ...TEXT_BODY, text: undefined })).toEqual([
      ['route', ['isRouteOfItsContent']],
    ]);
    expect(refusals(MessageSendRequestedV1, { ...BODY, bot: { id: 3, name: 'Concierge' } })).toEqual([
      ['bot/conversation_id', ['min', 'isInt']],
    ]);
  });
});
