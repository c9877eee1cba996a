import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { SendMessageBody } from './message.bodies';
import { MessageSendRequestedV1 } from './messaging.records';

/** What only the services say of a message: a workflow's step and events, a notification send's. */
const SERVICE_FIELDS = {
  workflow: { id: 7, name: 'Welcome', run_id: 41, step: 'hello' },
  event: { id: 3, name: 'order_placed', data: { order: 'A-9' } },
  waited_event: { name: 'order_paid', data: { total: 12 } },
  campaign_id: 42,
  test: true,
};

const BODY = { contact_id: 5, route: [{ channel: 'sms', template_id: 9 }] };

/**
 * Each refused field and the rules it failed, as the gateway's validation pipe finds them (unknown
 * fields refused, not dropped): its 422 points at `/data/attributes/<field>` for each.
 */
function refusals(schema: new () => object, body: object): Array<[string, string[]]> {
  const errors = validateSync(plainToInstance(schema, body), { whitelist: true, forbidNonWhitelisted: true });
  return errors.map((error) => [error.property, Object.keys(error.constraints ?? {})]);
}

describe('SendMessageBody', () => {
  it('refuses what only a workflow or a notification send says, each field on its own', () => {
    expect(refusals(SendMessageBody, { ...BODY, ...SERVICE_FIELDS })).toEqual([
      ['workflow', ['whitelistValidation']],
      ['event', ['whitelistValidation']],
      ['waited_event', ['whitelistValidation']],
      ['campaign_id', ['whitelistValidation']],
      ['test', ['whitelistValidation']],
    ]);
    // `test: false` is no more the customer's to say than `test: true`.
    expect(refusals(SendMessageBody, { ...BODY, test: false })).toEqual([['test', ['whitelistValidation']]]);
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
});
