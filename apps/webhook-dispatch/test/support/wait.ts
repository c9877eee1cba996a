import { createServer } from 'node:net';

import { eventually } from '@cms/testing';

import type { Receiver, ReceivedRequest } from '../receiver.fixture';

/** Waits until the receiver has had `count` requests for the delivery (or at all, without an id). */
export function received(
  receiver: Receiver,
  count: number,
  deliveryId?: string,
  timeoutMs = 20_000,
): Promise<ReceivedRequest[]> {
  return eventually(
    `${count} request(s) at the receiver${deliveryId ? ` for ${deliveryId}` : ''}`,
    async () => {
      const requests = deliveryId ? receiver.forDelivery(deliveryId) : receiver.requests;
      return requests.length >= count ? requests : undefined;
    },
    timeoutMs,
    20,
  );
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A port on 127.0.0.1 nothing listens on: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The gaps between consecutive requests, in ms. */
export function gaps(requests: ReceivedRequest[]): number[] {
  return requests.slice(1).map((request, index) => request.at - requests[index]!.at);
}
