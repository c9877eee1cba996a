/** Failed deliveries in a row (no success between) that switch an endpoint off. */
export const SWITCH_OFF_AFTER_FAILURES = 25;

/** A delivery whose answer was just recorded, as the switch-off rule sees it. */
export interface SettledDelivery {
  endpointId: string;
  /** False for test deliveries: neither their failure nor their success moves the count. */
  countsTowardSwitchOff: boolean;
  /** `pending`: attempts remain, and the count does not move yet. */
  status: 'pending' | 'succeeded' | 'failed';
}

export interface SwitchOffVerdict {
  /** Each endpoint whose count moved, and its count afterwards (0: no failure since its last success). */
  failuresInARow: Map<string, number>;
  /** By the position of the delivery whose failure asks for its endpoint's switch-off: the count it made. */
  switchOffs: Map<number, number>;
}

function moves(delivery: SettledDelivery | undefined): delivery is SettledDelivery {
  return delivery !== undefined && delivery.countsTowardSwitchOff && delivery.status !== 'pending';
}

/**
 * The endpoints whose count the verdict depends on: those with a failure among `settled`. An endpoint
 * with only successes starts over, whatever its count was.
 */
export function countsNeeded(settled: ReadonlyArray<SettledDelivery | undefined>): string[] {
  const endpoints = settled.filter(moves).filter((delivery) => delivery.status === 'failed');
  return [...new Set(endpoints.map((delivery) => delivery.endpointId))];
}

/**
 * An endpoint is switched off once its deliveries keep failing. Each failed delivery adds one to its
 * count and a success starts it over, in the order the answers came (`settled`; undefined for a
 * delivery whose answer no longer decides anything). The failure that makes exactly 25 asks for the
 * switch-off; later ones do not, so an endpoint its customer switched back on before the switch-off was
 * applied is not switched off again by them (switching on starts the count over).
 */
export function switchOffVerdict(
  failuresBefore: ReadonlyMap<string, number>,
  settled: ReadonlyArray<SettledDelivery | undefined>,
): SwitchOffVerdict {
  const failuresInARow = new Map<string, number>();
  const switchOffs = new Map<number, number>();
  for (const [position, delivery] of settled.entries()) {
    if (!moves(delivery)) continue;
    const { endpointId } = delivery;
    if (delivery.status === 'succeeded') {
      failuresInARow.set(endpointId, 0);
      continue;
    }
    const count = (failuresInARow.get(endpointId) ?? failuresBefore.get(endpointId) ?? 0) + 1;
    failuresInARow.set(endpointId, count);
    if (count === SWITCH_OFF_AFTER_FAILURES) switchOffs.set(position, count);
  }
  return { failuresInARow, switchOffs };
}
