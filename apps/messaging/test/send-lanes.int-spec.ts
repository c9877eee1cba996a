import { MigrationStages } from '@cms/testing';

import { insertSendJobs } from '../src/messages/message.repository';
import { MESSAGING_SERVICE } from '../src/messaging.service';
import { SendQueueRepository } from '../src/sending/send-queue.repository';

/** On a schema of its own with no worker, so nothing but the test claims its jobs. */
const stages = new MigrationStages('msglane');

afterAll(async () => {
  await stages.close();
});

describe('the send queue’s lanes (extensions §13: a send does not hold back other messages)', () => {
  it('claims the due jobs of one lane at a time, each in due order', async () => {
    const db = await stages.open(MESSAGING_SERVICE.migrations);
    const now = Date.now();
    const due = (ago: number): Date => new Date(now - ago);
    await db.transaction((manager) =>
      insertSendJobs(manager, [
        { messageId: 'msg_bulk_1', workspaceId: 1, dueAt: due(4000), bulk: true },
        { messageId: 'msg_bulk_2', workspaceId: 1, dueAt: due(3000), bulk: true },
        { messageId: 'msg_api_1', workspaceId: 2, dueAt: due(2000), bulk: false },
        { messageId: 'msg_api_2', workspaceId: 2, dueAt: due(1000), bulk: false },
      ]),
    );
    const queue = new SendQueueRepository(db, 'unused');
    const ids = async (limit: number, bulk: boolean): Promise<string[]> =>
      (await queue.claim(limit, 60_000, bulk)).map((job) => job.messageId).sort();
    // Each lane oldest first, and a batch of one lane never takes the other's.
    expect(await ids(1, false)).toEqual(['msg_api_1']);
    expect(await ids(5, false)).toEqual(['msg_api_2']);
    expect(await ids(1, true)).toEqual(['msg_bulk_1']);
    expect(await ids(5, true)).toEqual(['msg_bulk_2']);
    expect(await ids(5, false)).toEqual([]);
  });
});
