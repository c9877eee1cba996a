import { grownCapacity } from './capacity';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const finite = Number.isFinite;

/** Compaction waits until this much is dead, so small workspaces never copy their bytes. */
const COMPACT_AFTER_DEAD_BYTES = 4 << 20;

/** What a value starts with. */
const Tag = {
  Null: 0,
  False: 1,
  True: 2,
  /** A whole number of 32 bits, zigzag varint. */
  Int: 3,
  /** Any other number, 8 bytes. */
  Double: 4,
  /** Byte length (varint), then UTF-8. */
  String: 5,
  /** Byte length of the body (4 bytes), then key id (varint) and value pairs. */
  Object: 6,
  /** Byte length of the body (4 bytes), then the count (varint) and the values. */
  Array: 7,
} as const;
type Tag = (typeof Tag)[keyof typeof Tag];

/**
 * Every contact's custom fields (`data`), packed off the JS heap: the source each per-path column
 * is built from the first time a filter names the path. Held as objects, a million contacts' `data`
 * would cost the heap several hundred MB and every major collection a walk through them; as JSON text
 * each field name would be stored a million times. Here field names are numbered once per workspace
 * and values are typed bytes, so a row takes about half its JSON, and reading one path skips the
 * other fields by their lengths without decoding them (a million rows in tens of milliseconds,
 * where JSON.parse takes most of a second). A changed `data` is appended; the old bytes are dead
 * until the log is compacted. An empty object takes no bytes.
 *
 * Paths resolve as Postgres' `#>` resolves them (see resolveDataPath): keys of objects, and integer
 * keys of arrays (negative from the end). A container at the end of a path reads as null: only
 * scalars are values.
 */
export class DataLog {
  private readonly keyIds = new Map<string, number>();
  /** Where the last varint read ended (kept here: a result object per read would be garbage). */
  private afterVarint = 0;
  private bytes = Buffer.alloc(1 << 16);
  private used = 0;
  private deadBytes = 0;
  private start = new Uint32Array(0);
  private length = new Uint32Array(0);

  set(row: number, data: Record<string, unknown>): void {
    this.ensureRows(row + 1);
    this.deadBytes += this.length[row]!;
    this.length[row] = 0;
    const begin = this.used;
    this.writePairs(data);
    this.start[row] = begin;
    this.length[row] = this.used - begin;
    if (this.deadBytes > COMPACT_AFTER_DEAD_BYTES && this.deadBytes * 2 > this.used) this.compact();
  }

  /**
   * A reader of one path for any row: the scalar there, null for null or a container, undefined
   * when the path leads nowhere.
   */
  pathReader(path: readonly string[]): (row: number) => unknown {
    const steps = path.map((key) => ({
      keyId: this.keyIds.get(key) ?? -1,
      index: /^-?\d+$/.test(key) ? Number(key) : null,
    }));
    return (row) => {
      const length = row < this.length.length ? this.length[row]! : 0;
      if (length === 0) return undefined;
      let at = this.start[row]!;
      let end = at + length;
      let tag: Tag = Tag.Object;
      for (let step = 0; step < steps.length; step += 1) {
        const { keyId, index } = steps[step]!;
        const found = tag === Tag.Object ? this.findKey(at, end, keyId) : this.findIndex(at, index);
        if (found < 0) return undefined;
        tag = this.bytes[found]! as Tag;
        if (step === steps.length - 1) return this.scalarAt(found);
        if (tag !== Tag.Object && tag !== Tag.Array) return undefined;
        at = found + 5;
        end = at + this.bytes.readUInt32LE(found + 1);
      }
      return undefined;
    };
  }

  // --- writing ----------------------------------------------------------------------------------

  private writePairs(data: Record<string, unknown>): void {
    for (const key in data) {
      if (!Object.hasOwn(data, key)) continue;
      const value = data[key];
      // As JSON.stringify: a property whose value has no JSON form is left out.
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      let keyId = this.keyIds.get(key);
      if (keyId === undefined) {
        keyId = this.keyIds.size;
        this.keyIds.set(key, keyId);
      }
      this.ensureBytes(this.used + 5);
      this.writeVarint(keyId);
      this.writeValue(value);
    }
  }

  private writeValue(value: unknown): void {
    this.ensureBytes(this.used + 10);
    const bytes = this.bytes;
    if (value === null || value === undefined) {
      bytes[this.used++] = Tag.Null;
    } else if (typeof value === 'boolean') {
      bytes[this.used++] = value ? Tag.True : Tag.False;
    } else if (typeof value === 'number') {
      if (!finite(value)) {
        bytes[this.used++] = Tag.Null;
      } else if ((value | 0) === value && !Object.is(value, -0)) {
        bytes[this.used++] = Tag.Int;
        this.writeVarint(((value << 1) ^ (value >> 31)) >>> 0);
      } else {
        bytes[this.used++] = Tag.Double;
        this.used = bytes.writeDoubleLE(value, this.used);
      }
    } else if (typeof value === 'string') {
      bytes[this.used++] = Tag.String;
      this.writeString(value);
    } else if (typeof value === 'bigint') {
      bytes[this.used++] = Tag.Double;
      this.used = bytes.writeDoubleLE(Number(value), this.used);
    } else if (Array.isArray(value)) {
      const lengthAt = this.openContainer(Tag.Array);
      this.writeVarint(value.length);
      for (const item of value) this.writeValue(item);
      this.closeContainer(lengthAt);
    } else if (typeof value === 'object') {
      const lengthAt = this.openContainer(Tag.Object);
      this.writePairs(value as Record<string, unknown>);
      this.closeContainer(lengthAt);
    } else {
      bytes[this.used++] = Tag.Null;
    }
  }

  private writeString(text: string): void {
    let ascii = true;
    for (let index = 0; index < text.length; index += 1) {
      if (text.charCodeAt(index) >= 0x80) {
        ascii = false;
        break;
      }
    }
    const byteLength = ascii ? text.length : Buffer.byteLength(text, 'utf8');
    this.ensureBytes(this.used + 5 + byteLength);
    this.writeVarint(byteLength);
    if (ascii) {
      const bytes = this.bytes;
      for (let index = 0; index < text.length; index += 1) bytes[this.used + index] = text.charCodeAt(index);
      this.used += byteLength;
    } else {
      this.used += this.bytes.write(text, this.used, 'utf8');
    }
  }

  private openContainer(tag: Tag): number {
    this.ensureBytes(this.used + 10);
    this.bytes[this.used++] = tag;
    const lengthAt = this.used;
    this.used += 4;
    return lengthAt;
  }

  private closeContainer(lengthAt: number): void {
    this.bytes.writeUInt32LE(this.used - lengthAt - 4, lengthAt);
  }

  private writeVarint(value: number): void {
    const bytes = this.bytes;
    let rest = value >>> 0;
    while (rest >= 0x80) {
      bytes[this.used++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    bytes[this.used++] = rest;
  }

  // --- reading ----------------------------------------------------------------------------------

  /** Where the value of key `keyId` starts in the pairs `at … end`, or -1. */
  private findKey(at: number, end: number, keyId: number): number {
    if (keyId < 0) return -1;
    let position = at;
    while (position < end) {
      const key = this.readVarint(position);
      if (key === keyId) return this.afterVarint;
      position = this.skipValue(this.afterVarint);
    }
    return -1;
  }

  /** Where element `index` of the array whose body starts at `at` starts, or -1. */
  private findIndex(at: number, index: number | null): number {
    if (index === null) return -1;
    const count = this.readVarint(at);
    const wanted = index < 0 ? count + index : index;
    if (wanted < 0 || wanted >= count) return -1;
    let position = this.afterVarint;
    for (let skipped = 0; skipped < wanted; skipped += 1) position = this.skipValue(position);
    return position;
  }

  private skipValue(at: number): number {
    switch (this.bytes[at] as Tag) {
      case Tag.Null:
      case Tag.False:
      case Tag.True:
        return at + 1;
      case Tag.Int:
        this.readVarint(at + 1);
        return this.afterVarint;
      case Tag.Double:
        return at + 9;
      case Tag.String: {
        const length = this.readVarint(at + 1);
        return this.afterVarint + length;
      }
      case Tag.Object:
      case Tag.Array:
        return at + 5 + this.bytes.readUInt32LE(at + 1);
    }
  }

  private scalarAt(at: number): unknown {
    switch (this.bytes[at] as Tag) {
      case Tag.Null:
      case Tag.Object:
      case Tag.Array:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Int: {
        const zigzag = this.readVarint(at + 1);
        return (zigzag >>> 1) ^ -(zigzag & 1);
      }
      case Tag.Double:
        return this.bytes.readDoubleLE(at + 1);
      case Tag.String: {
        const length = this.readVarint(at + 1);
        return this.bytes.toString('utf8', this.afterVarint, this.afterVarint + length);
      }
    }
  }

  /** The varint at `at`; where it ends is left in `afterVarint`. */
  private readVarint(at: number): number {
    const bytes = this.bytes;
    let value = 0;
    let scale = 1;
    let position = at;
    for (;;) {
      const byte = bytes[position++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        this.afterVarint = position;
        return value;
      }
      scale *= 128;
    }
  }

  // --- room -------------------------------------------------------------------------------------

  private compact(): void {
    const bytes = Buffer.alloc(Math.max(1 << 16, Math.ceil((this.used - this.deadBytes) * 1.25)));
    let used = 0;
    for (let row = 0; row < this.length.length; row += 1) {
      const length = this.length[row]!;
      if (length === 0) continue;
      this.bytes.copy(bytes, used, this.start[row]!, this.start[row]! + length);
      this.start[row] = used;
      used += length;
    }
    this.bytes = bytes;
    this.used = used;
    this.deadBytes = 0;
  }

  private ensureBytes(size: number): void {
    if (size <= this.bytes.length) return;
    const next = Buffer.alloc(grownCapacity(this.bytes.length, size));
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }

  private ensureRows(rows: number): void {
    if (rows <= this.length.length) return;
    const size = grownCapacity(this.length.length, rows);
    const start = new Uint32Array(size);
    start.set(this.start);
    const length = new Uint32Array(size);
    length.set(this.length);
    this.start = start;
    this.length = length;
  }
}
