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

/** The gaps between consecutive requests, in ms. */
export function gaps(requests: ReceivedRequest[]): number[] {
  return requests.slice(1).map((request, index) => request.at - requests[index]!.at);
}
