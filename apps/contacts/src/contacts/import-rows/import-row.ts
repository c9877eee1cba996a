import {
  MAX_CONTACT_TEXT,
  MAX_PHONE_LENGTH,
  type ImportRowSkipReason,
  type ImportRowV1,
} from '@cms/contracts';
import { storableText } from '@cms/kafka';
import { isEmail } from 'class-validator';

import type { ContactChanges } from '../contact-changes';
import { toE164 } from '../phone-number';

/** The contact `source` of a contact an import created. */
export const IMPORT_CONTACT_SOURCE = 'import';

/** What a row of an import writes when it creates a contact, or why it cannot be matched at all. */
export type ImportRowReading =
  | { changes: Readonly<ContactChanges & { source: string }> }
  | { reason: Extract<ImportRowSkipReason, 'no_identifier' | 'invalid_phone' | 'invalid_email'> };

/** As on events: null and blank mean "no value". */
function given(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * An email as the contact endpoints accept one (IsEmail, at most MAX_CONTACT_TEXT). Text that is not
 * well-formed Unicode is none (the email check itself cannot read a lone surrogate).
 */
function isValidEmail(email: string): boolean {
  return (
    email.length <= MAX_CONTACT_TEXT &&
    (email as string & { isWellFormed(): boolean }).isWellFormed() &&
    isEmail(email)
  );
}

/**
 * Reads a row's values as the file holds them. The phone must read as a number with its country code
 * and is kept in E.164, so that it matches the contact holding the number however it was written; the
 * email is kept as written (matched whatever its case).
 *
 * A row with a value that is given but invalid is skipped for it, even when its other identifier is
 * valid: matching or creating by the other one alone would quietly leave out a column the import
 * mapped, and the job's errors tell which rows to correct (the phone is looked at first, as it is when
 * matching). The name is kept up to MAX_CONTACT_TEXT characters (what a contact's name holds), any
 * U+0000 or lone surrogate in it made U+FFFD (text Postgres can hold); it never decides anything.
 */
export function readImportRow(row: Pick<ImportRowV1, 'phone' | 'email' | 'name'>): ImportRowReading {
  let reading = readings.get(row);
  if (reading === undefined) {
    reading = read(row);
    readings.set(row, reading);
  }
  return reading;
}

/**
 * The reading of each row read so far: a chunk's rows are read when the state they need is loaded,
 * and again as each is decided (parsing a phone and checking an email are most of reading a row).
 * The same reading is handed out each time, so nothing may change it.
 */
const readings = new WeakMap<object, ImportRowReading>();

function read(row: Pick<ImportRowV1, 'phone' | 'email' | 'name'>): ImportRowReading {
  const phone = given(row.phone);
  const email = given(row.email);
  if (phone === undefined && email === undefined) return { reason: 'no_identifier' };
  const changes: ContactChanges & { source: string } = { source: IMPORT_CONTACT_SOURCE };
  if (phone !== undefined) {
    // As the contact endpoints: a phone longer than a contact's can be sent is none.
    const e164 = phone.length <= MAX_PHONE_LENGTH ? toE164(phone) : undefined;
    if (e164 === undefined) return { reason: 'invalid_phone' };
    changes.phone = e164;
  }
  if (email !== undefined) {
    if (!isValidEmail(email)) return { reason: 'invalid_email' };
    changes.email = email;
  }
  const name = given(row.name);
  if (name !== undefined) changes.name = storableText(cutName(name));
  return { changes };
}

/** A name cut to what a contact's name holds, never inside a surrogate pair. */
function cutName(name: string): string {
  if (name.length <= MAX_CONTACT_TEXT) return name;
  const cut = name.slice(0, MAX_CONTACT_TEXT);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
