import {
  countsNeeded,
  SWITCH_OFF_AFTER_FAILURES,
  switchOffVerdict,
  type SettledDelivery,
} from './switch-off-rule';

const A = 'endpoint-a';
const B = 'endpoint-b';

function failed(endpointId: string, countsTowardSwitchOff = true): SettledDelivery {
  return { endpointId, countsTowardSwitchOff, status: 'failed' };
}

function succeeded(endpointId: string, countsTowardSwitchOff = true): SettledDelivery {
  return { endpointId, countsTowardSwitchOff, status: 'succeeded' };
}

function pending(endpointId: string): SettledDelivery {
  return { endpointId, countsTowardSwitchOff: true, status: 'pending' };
}

describe('the switch-off rule', () => {
  it('adds one per failed delivery to what the endpoint had', () => {
    const verdict = switchOffVerdict(new Map([[A, 3]]), [failed(A), failed(B), failed(A)]);
    expect(verdict.failuresInARow).toEqual(
      new Map([
        [A, 5],
        [B, 1],
      ]),
    );
    expect(verdict.switchOffs).toEqual(new Map());
  });

  it('starts the count over at a success, in the order the answers came', () => {
    expect(switchOffVerdict(new Map([[A, 5]]), [failed(A), succeeded(A)]).failuresInARow).toEqual(
      new Map([[A, 0]]),
    );
    expect(switchOffVerdict(new Map([[A, 5]]), [succeeded(A), failed(A)]).failuresInARow).toEqual(
      new Map([[A, 1]]),
    );
  });

  it('asks for the switch-off with the failure that makes 25, naming that delivery', () => {
    const verdict = switchOffVerdict(new Map([[A, SWITCH_OFF_AFTER_FAILURES - 2]]), [
      failed(B),
      failed(A),
      pending(A),
      failed(A),
    ]);
    expect(verdict.switchOffs).toEqual(new Map([[3, 25]]));
    expect(verdict.failuresInARow.get(A)).toBe(25);
  });

  it('does not ask again for failures past 25: the endpoint may have been switched on meanwhile', () => {
    const verdict = switchOffVerdict(new Map([[A, SWITCH_OFF_AFTER_FAILURES]]), [failed(A), failed(A)]);
    expect(verdict.switchOffs).toEqual(new Map());
    expect(verdict.failuresInARow.get(A)).toBe(27);
  });

  it('asks again after a success started the count over and 25 more failed', () => {
    const settled = [succeeded(A), ...Array.from({ length: SWITCH_OFF_AFTER_FAILURES }, () => failed(A))];
    expect(switchOffVerdict(new Map([[A, 40]]), settled).switchOffs).toEqual(new Map([[25, 25]]));
  });

  it('24 failures, a success and 24 failures switch nothing off', () => {
    const run = Array.from({ length: 24 }, () => failed(A));
    const verdict = switchOffVerdict(new Map(), [...run, succeeded(A), ...run]);
    expect(verdict.switchOffs).toEqual(new Map());
    expect(verdict.failuresInARow.get(A)).toBe(24);
  });

  it('is not moved by test deliveries, deliveries with attempts left, or answers that no longer decide', () => {
    const verdict = switchOffVerdict(new Map([[A, 24]]), [
      failed(A, false),
      succeeded(A, false),
      pending(A),
      undefined,
    ]);
    expect(verdict).toEqual({ failuresInARow: new Map(), switchOffs: new Map() });
  });

  it('needs the counts of the endpoints with a failure only: one with successes alone starts over', () => {
    expect(
      countsNeeded([succeeded(A), failed(B), failed(B), failed('test', false), pending('retry'), undefined]),
    ).toEqual([B]);
    expect(switchOffVerdict(new Map(), [succeeded(A)]).failuresInARow).toEqual(new Map([[A, 0]]));
  });
});
