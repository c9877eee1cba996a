import { RowBits, type Bitset } from './bitset';
import { grownCapacity } from './capacity';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { imul } = Math;

/** 0xFF is never a byte of UTF-8, so it can end every value without being mistaken for text. */
const SEPARATOR = 0xff;
/** Compaction waits until this much is dead, so small workspaces never copy their bytes. */
const COMPACT_AFTER_DEAD_BYTES = 1 << 20;

/**
 * A text column (name, email, a custom field's strings, …) as one UTF-8 byte log: every value is
 * written once after the previous one, each followed by a 0xFF separator, and a row points at its
 * entry. `contains` is then a native `Buffer.indexOf` over the whole log (a match cannot run across a
 * separator), which scans a million e-mail addresses in a few milliseconds; `starts_with` and
 * `ends_with` compare each entry's first or last bytes in one pass over the log; `eq` and `in`
 * compare a 32-bit hash per row before looking at any byte.
 * A changed value is appended and its old entry marked dead; the log is compacted once the dead
 * bytes outweigh the live ones. Values are kept folded to lower case when the column ignores case.
 */
export class TextColumn {
  /** The rows with a value, kept as values come and go (`exists` and reachability read it). */
  readonly presence = new RowBits();

  private bytes = Buffer.alloc(4096);
  private used = 1;
  private deadBytes = 0;
  /** Entries in log order: where each starts (ascending) and its row (-1 once replaced). */
  private entryStart = new Uint32Array(256);
  private entryRow = new Int32Array(256);
  private entries = 0;
  /** Per row: its entry (-1 when the value is null) and the hash of its value. */
  private rowEntry = new Int32Array(0);
  private rowHash = new Uint32Array(0);

  constructor(readonly ignoresCase: boolean) {
    this.bytes[0] = SEPARATOR;
  }

  /** The form values are kept and compared in. */
  normalise(value: string): string {
    return this.ignoresCase ? value.toLowerCase() : value;
  }

  set(row: number, value: string | null): void {
    // A column most rows leave empty (a rarely linked channel) stays small until a value arrives.
    if (value === null && row >= this.rowEntry.length) return;
    this.ensureRows(row + 1);
    const old = this.rowEntry[row]!;
    if (value === null) {
      if (old === -1) return;
      this.release(old);
      this.rowEntry[row] = -1;
      this.presence.set(row, false);
      return;
    }
    // ASCII (most values) is folded and hashed in one pass and written as it is read; anything else
    // goes through toLowerCase and the UTF-8 encoder.
    const fold = this.ignoresCase;
    let hash = 0x811c9dc5;
    let ascii = true;
    for (let index = 0; index < value.length; index += 1) {
      let code = value.charCodeAt(index);
      if (code >= 0x80) {
        ascii = false;
        break;
      }
      if (fold && code >= 65 && code <= 90) code += 32;
      hash = imul(hash ^ code, 16777619);
    }
    const text = ascii ? value : this.normalise(value);
    hash = ascii ? hash >>> 0 : hashText(text);
    // Most updates of a contact leave most of its fields as they were: write nothing for those.
    if (old >= 0 && this.rowHash[row] === hash && this.entryHolds(old, text, ascii)) return;
    if (old >= 0) this.release(old);
    this.presence.set(row, true);
    this.rowEntry[row] = this.append(text, ascii, row);
    this.rowHash[row] = hash;
    if (this.deadBytes > COMPACT_AFTER_DEAD_BYTES && this.deadBytes * 2 > this.used) this.compact();
  }

  /** The row's value as kept (lower case when the column ignores case), or null. */
  value(row: number): string | null {
    const entry = row < this.rowEntry.length ? this.rowEntry[row]! : -1;
    return entry < 0 ? null : this.entryText(entry);
  }

  /** Adds to `out` every row with a value. */
  present(out: Bitset): void {
    const words = this.presence.words;
    const end = Math.min(out.words.length, words.length);
    for (let w = 0; w < end; w += 1) out.words[w]! |= words[w]!;
  }

  /** Adds to `out` every row whose value equals one of `values` (compared as the column keeps them). */
  equalsAny(values: readonly string[], out: Bitset): void {
    const wanted = new WantedValues(values.map((value) => this.normalise(value)));
    const { rowEntry, rowHash } = this;
    const end = Math.min(out.size, rowEntry.length);
    if (wanted.single) {
      const hash = wanted.hashes[0]!;
      const needle = wanted.needles[0]!;
      for (let row = 0; row < end; row += 1) {
        if (rowHash[row] === hash && rowEntry[row]! >= 0 && this.entryEquals(rowEntry[row]!, needle))
          out.add(row);
      }
      return;
    }
    const { hashes, needles } = wanted;
    if (hashes.length <= 8) {
      // A few values (the usual `in`): comparing with each hash beats probing a table.
      for (let row = 0; row < end; row += 1) {
        const entry = rowEntry[row]!;
        if (entry < 0) continue;
        const hash = rowHash[row]!;
        for (let index = 0; index < hashes.length; index += 1) {
          if (hashes[index] === hash && this.entryEquals(entry, needles[index]!)) {
            out.add(row);
            break;
          }
        }
      }
      return;
    }
    for (let row = 0; row < end; row += 1) {
      const entry = rowEntry[row]!;
      if (entry < 0) continue;
      const hash = rowHash[row]!;
      for (let index = wanted.first(hash); index >= 0; index = wanted.next[index]!) {
        if (hashes[index] === hash && this.entryEquals(entry, needles[index]!)) {
          out.add(row);
          break;
        }
      }
    }
  }

  /** Adds to `out` every row whose value holds `value`. */
  contains(value: string, out: Bitset): void {
    const needle = Buffer.from(this.normalise(value), 'utf8');
    if (needle.length === 0 || this.entries === 0) return;
    const log = this.bytes.subarray(0, this.used);
    let from = 0;
    let entry = 0;
    for (;;) {
      const at = log.indexOf(needle, from);
      if (at === -1) return;
      // The needle holds no separator, so the match lies inside one entry; the next search starts
      // at the following entry, as one match per entry is all a row needs.
      entry = this.entryAt(at, entry);
      const row = this.entryRow[entry]!;
      if (row >= 0 && row < out.size) out.add(row);
      if (entry + 1 >= this.entries) return;
      from = this.entryStart[entry + 1]!;
    }
  }

  startsWith(value: string, out: Bitset): void {
    this.affix(Buffer.from(this.normalise(value), 'utf8'), false, out);
  }

  endsWith(value: string, out: Bitset): void {
    this.affix(Buffer.from(this.normalise(value), 'utf8'), true, out);
  }

  /**
   * Compares the first (or last) bytes of every live entry with `needle`, walking the log in order.
   * A beginning or an end is often shared by most values (`@example.com`), where one search per
   * match would cost far more than this pass, which stops at the first differing byte.
   */
  private affix(needle: Buffer, atEnd: boolean, out: Bitset): void {
    const { bytes, entryStart, entryRow, entries } = this;
    const length = needle.length;
    for (let entry = 0; entry < entries; entry += 1) {
      const row = entryRow[entry]!;
      if (row < 0 || row >= out.size) continue;
      const start = entryStart[entry]!;
      const end = (entry + 1 < entries ? entryStart[entry + 1]! : this.used) - 1;
      if (end - start < length) continue;
      const from = atEnd ? end - length : start;
      let index = 0;
      while (index < length && bytes[from + index] === needle[index]) index += 1;
      if (index === length) out.add(row);
    }
  }

  /**
   * The last entry that starts at or before `position`, looked for from entry `low` on: galloping
   * first, as the next match is usually close to the last one.
   */
  private entryAt(position: number, from: number): number {
    let low = from;
    let step = 1;
    while (low + step < this.entries && this.entryStart[low + step]! <= position) {
      low += step;
      step *= 2;
    }
    let high = Math.min(low + step, this.entries) - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.entryStart[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private entryLength(entry: number): number {
    const end = entry + 1 < this.entries ? this.entryStart[entry + 1]! : this.used;
    return end - 1 - this.entryStart[entry]!;
  }

  private entryText(entry: number): string {
    const start = this.entryStart[entry]!;
    return this.bytes.toString('utf8', start, start + this.entryLength(entry));
  }

  private entryEquals(entry: number, candidate: Buffer): boolean {
    const start = this.entryStart[entry]!;
    const length = this.entryLength(entry);
    if (length !== candidate.length) return false;
    // Short values (most): a byte loop costs less than a native call per row.
    if (length <= 32) {
      const bytes = this.bytes;
      for (let index = 0; index < length; index += 1) {
        if (bytes[start + index] !== candidate[index]) return false;
      }
      return true;
    }
    return this.bytes.compare(candidate, 0, length, start, start + length) === 0;
  }

  /** Writes a value (ASCII folded here when the column ignores case) as a new entry of the row. */
  private append(text: string, ascii: boolean, row: number): number {
    // UTF-8 takes at most three bytes per UTF-16 unit.
    this.ensureBytes(this.used + text.length * 3 + 1);
    if (this.entries === this.entryStart.length) {
      const size = grownCapacity(this.entries, this.entries + 1, 256);
      this.entryStart = grown(this.entryStart, size);
      this.entryRow = grown(this.entryRow, size);
    }
    const entry = this.entries;
    this.entryStart[entry] = this.used;
    this.entryRow[entry] = row;
    this.entries += 1;
    const bytes = this.bytes;
    if (ascii) {
      const fold = this.ignoresCase;
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        bytes[this.used + index] = fold && code >= 65 && code <= 90 ? code + 32 : code;
      }
      this.used += text.length;
    } else {
      this.used += bytes.write(text, this.used, 'utf8');
    }
    bytes[this.used] = SEPARATOR;
    this.used += 1;
    return entry;
  }

  /** Whether an entry holds this value (ASCII compared folded, byte by byte). */
  private entryHolds(entry: number, text: string, ascii: boolean): boolean {
    if (!ascii) return this.entryText(entry) === text;
    const start = this.entryStart[entry]!;
    if (this.entryLength(entry) !== text.length) return false;
    const fold = this.ignoresCase;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (this.bytes[start + index] !== (fold && code >= 65 && code <= 90 ? code + 32 : code)) return false;
    }
    return true;
  }

  private release(entry: number): void {
    this.entryRow[entry] = -1;
    this.deadBytes += this.entryLength(entry) + 1;
  }

  /** Copies the live entries, in order, into a log of their own size. */
  private compact(): void {
    const liveBytes = this.used - this.deadBytes;
    const bytes = Buffer.alloc(Math.max(4096, Math.ceil(liveBytes * 1.5)));
    bytes[0] = SEPARATOR;
    let used = 1;
    let kept = 0;
    for (let entry = 0; entry < this.entries; entry += 1) {
      const row = this.entryRow[entry]!;
      if (row < 0) continue;
      const start = this.entryStart[entry]!;
      const length = this.entryLength(entry) + 1;
      this.bytes.copy(bytes, used, start, start + length);
      this.entryStart[kept] = used;
      this.entryRow[kept] = row;
      this.rowEntry[row] = kept;
      used += length;
      kept += 1;
    }
    this.bytes = bytes;
    this.used = used;
    this.entries = kept;
    this.deadBytes = 0;
  }

  private ensureBytes(size: number): void {
    if (size <= this.bytes.length) return;
    const next = Buffer.alloc(grownCapacity(this.bytes.length, size));
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }

  private ensureRows(rows: number): void {
    if (rows <= this.rowEntry.length) return;
    const size = grownCapacity(this.rowEntry.length, rows);
    const rowEntry = new Int32Array(size).fill(-1);
    rowEntry.set(this.rowEntry);
    this.rowEntry = rowEntry;
    this.rowHash = grown(this.rowHash, size);
  }
}

/** FNV-1a over the UTF-16 units: cheap, and equal texts always hash equal. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash = imul(hash ^ text.charCodeAt(index), 16777619);
  }
  return hash >>> 0;
}

function grown<T extends Uint32Array | Int32Array>(array: T, size: number): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  next.set(array);
  return next;
}

/**
 * The values an `in` looks for, by hash: probed once per row (a Map lookup would cost several times
 * more), with the values sharing a slot chained.
 */
class WantedValues {
  readonly needles: Buffer[];
  readonly hashes: Uint32Array;
  readonly next: Int32Array;
  readonly single: boolean;
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(values: string[]) {
    const distinct = [...new Set(values)];
    this.needles = distinct.map((value) => Buffer.from(value, 'utf8'));
    this.hashes = Uint32Array.from(distinct.map(hashText));
    this.single = distinct.length === 1;
    this.next = new Int32Array(distinct.length).fill(-1);
    let size = 16;
    while (size < distinct.length * 4) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    distinct.forEach((_, index) => {
      const slot = mix(this.hashes[index]!) & this.mask;
      this.next[index] = this.slots[slot]!;
      this.slots[slot] = index;
    });
  }

  /** The first value whose hash shares the slot of `hash` (follow `next`), or -1. */
  first(hash: number): number {
    return this.slots[mix(hash) & this.mask]!;
  }
}

function mix(hash: number): number {
  return imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0;
}
