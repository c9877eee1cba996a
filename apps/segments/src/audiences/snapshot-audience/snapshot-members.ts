import type { ConsentChannel } from '@cms/contracts';

import { Bitset } from '../../evaluation/bitset';
import { hashText } from '../../evaluation/text-column';
import type { WorkspaceIndex } from '../../evaluation/workspace-index';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { imul } = Math;

/**
 * A phone already in E.164: the contacts service stores every number that has an E.164 form so, and
 * a number from an event that has none as it came (which parsing again would not change). Only a
 * phone written otherwise is parsed: a million numbers parsed would take seconds.
 */
const E164 = /^\+[1-9][0-9]{1,14}$/;

/** A member's recipient address for the snapshot's channel, by its row; null when it has none. */
export type AddressOf = (row: number) => string | null;

/**
 * How the snapshot's channel addresses a member (extensions §13): the phone in E.164 for sms,
 * whatsapp and rcs (as kept when it has no E.164 form: messaging sends to it as stored), the email
 * in lower case, the linked id for telegram, messenger and instagram (trimmed, as the suppression list
 * compares them). Undefined for browser_push: a push goes to the contact's own subscriptions, so each
 * member is its own recipient and none is deduplicated.
 */
export function addressReader(index: WorkspaceIndex, channel: ConsentChannel): AddressOf | undefined {
  switch (channel) {
    case 'sms':
    case 'whatsapp':
    case 'rcs': {
      const phones = index.text('phone');
      const { phoneE164 } = index;
      return (row) => {
        const phone = phones.value(row);
        if (phone === null || E164.test(phone)) return phone;
        return phoneE164(phone) ?? phone;
      };
    }
    case 'email': {
      // The column keeps its values in lower case already.
      const emails = index.text('email');
      return (row) => emails.value(row);
    }
    case 'telegram':
    case 'messenger':
    case 'instagram': {
      const linked = index.link(channel);
      return (row) => linked.value(row);
    }
    case 'browser_push':
      return undefined;
  }
}

/** An audience's members taken for a send: who gets a message, and how many did not because of whom. */
export interface SnapshotMembers {
  /** The members that get a message, ascending. */
  contactIds: number[];
  /** Members before deduplication. */
  audienceSize: number;
  /** Members left out because a member of a lower id has the same recipient address. */
  deduplicated: number;
}

/**
 * The members of `set`, those whose address for `channel` equals that of a member of a lower id left
 * out: of members sharing an address the lowest id is kept. A member without an address stays
 * (messaging suppresses its message, which the send counts). The rows are walked in their own order,
 * each address read once from columns laid out in that order, and only the kept ids are sorted:
 * reading a million addresses in id order instead would jump about memory for most of the time taken.
 */
export function snapshotMembers(
  index: WorkspaceIndex,
  set: Bitset,
  channel: ConsentChannel,
): SnapshotMembers {
  const audienceSize = index.count(set);
  const addressOf = addressReader(index, channel);
  if (addressOf === undefined) return { contactIds: index.members(set), audienceSize, deduplicated: 0 };
  const seen = new AddressSet(audienceSize, addressOf, (row) => index.contactId(row));
  const leftOut = new Bitset(set.size);
  set.forEach((row) => {
    const address = addressOf(row);
    if (address === null) return;
    const out = seen.add(address, row);
    if (out >= 0) leftOut.add(out);
  });
  const contactIds = index.members(set.andNot(leftOut));
  return { contactIds, audienceSize, deduplicated: audienceSize - contactIds.length };
}

/**
 * Each address seen so far, as the row of the lowest contact id holding it: a hash per slot and the
 * row, in typed arrays with linear probing (16 MB for a million members), instead of a Set holding a
 * million strings the garbage collector would walk. An address is read again from its row only when
 * the hashes agree.
 */
class AddressSet {
  private readonly hashes: Uint32Array;
  /** The row holding the slot's address, plus one (0: the slot is free). */
  private readonly rows: Int32Array;
  private readonly mask: number;

  constructor(
    expected: number,
    private readonly addressOf: AddressOf,
    private readonly contactId: (row: number) => number,
  ) {
    let slots = 16;
    while (slots < expected * 2) slots *= 2;
    this.hashes = new Uint32Array(slots);
    this.rows = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** Adds the row's address; answers the row that lost it to a lower contact id, or -1 for none. */
  add(address: string, row: number): number {
    const hash = hashText(address);
    const { hashes, rows, mask } = this;
    for (let slot = mix(hash) & mask; ; slot = (slot + 1) & mask) {
      const held = rows[slot]! - 1;
      if (held < 0) {
        hashes[slot] = hash;
        rows[slot] = row + 1;
        return -1;
      }
      if (hashes[slot] !== hash || this.addressOf(held) !== address) continue;
      if (this.contactId(held) < this.contactId(row)) return row;
      rows[slot] = row + 1;
      return held;
    }
  }
}

/** Spreads FNV's low bits, which the slot is taken from. */
function mix(hash: number): number {
  return imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0;
}
