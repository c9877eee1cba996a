import type { EarlyStatusEntity } from './message.entity';
import { inReportedOrder } from './provider-status';

function held(status: EarlyStatusEntity['status'], at: string): EarlyStatusEntity {
  return { channelId: 1, providerMessageId: 'wamid.1', status, workspaceId: 7, at, failure: null };
}

describe('inReportedOrder', () => {
  it('applies held statuses in the order they happened, whatever order their callbacks came in', () => {
    const order = inReportedOrder([
      held('read', '2026-11-24T10:00:02Z'),
      held('delivered', '2026-11-24T10:00:01Z'),
      held('sent', '2026-11-24T10:00:00.500Z'),
    ]);
    expect(order.map((status) => [status.status, status.at])).toEqual([
      ['sent', '2026-11-24T10:00:00.500Z'],
      ['delivered', '2026-11-24T10:00:01Z'],
      ['read', '2026-11-24T10:00:02Z'],
    ]);
  });

  it('orders statuses of the same second as the lifecycle does (providers give whole seconds)', () => {
    const order = inReportedOrder([
      held('read', '2026-11-24T10:00:01Z'),
      held('delivered', '2026-11-24T10:00:01Z'),
    ]);
    expect(order.map((status) => status.status)).toEqual(['delivered', 'read']);
  });
});
