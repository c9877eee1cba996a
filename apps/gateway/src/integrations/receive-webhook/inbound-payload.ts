import {
  CONSENT_CHANNELS,
  EventContactBody,
  RecordEventBody,
  type FieldMappingTarget,
  type MarketingConsentInput,
} from '@cms/contracts';
import { JsonApiException, validationErrorsToJsonApi, type ValidationIssue } from '@cms/http';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import type { FieldMapping } from '../integration.entity';

/** The contact of an inbound payload, shaped as the contact of POST /api/v1/events. */
export interface InboundContact {
  name?: string;
  phone?: string;
  email?: string;
  external_id?: string;
  data?: Record<string, unknown>;
  marketing_consent?: MarketingConsentInput;
}

/** What a payload asks for, validated exactly as POST /api/v1/events validates its body. */
export type InboundRequest =
  | { kind: 'event'; event: RecordEventBody; retryId?: string }
  | { kind: 'contact'; contact: InboundContact; retryId?: string };

type ContactField = 'name' | 'phone' | 'email' | 'external_id' | 'marketing_consent';

const POINTER_PREFIX = '/data/attributes';
const MAX_RETRY_ID_LENGTH = 255;

/** The default places of the specification, tried in this order after the field mappings. */
const DEFAULT_PLACES = {
  phone: ['phone', 'contact.phone'],
  email: ['email', 'contact.email'],
  external_id: ['external_id', 'id', 'contact.external_id', 'contact.id'],
  name: ['name', 'contact.name'],
  marketing_consent: ['marketing_consent', 'opt_in', 'contact.marketing_consent'],
} as const;
const DEFAULT_NAME_PARTS = [
  ['first_name', 'last_name'],
  ['contact.first_name', 'contact.last_name'],
] as const;

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

/** `contact.phone` → `/data/attributes/contact/phone` (RFC 6901 escapes). */
export function pointerOf(path: string): string {
  const segments = path.split('.').map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1'));
  return [POINTER_PREFIX, ...segments].join('/');
}

/** The value at a dot path: own members of objects, and indexes of arrays for numeric segments. */
export function valueAt(payload: unknown, path: string): unknown {
  let current: unknown = payload;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^(?:0|[1-9][0-9]*)$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text, or a number written as text (phones and ids often arrive as numbers); blank is "not there". */
function asText(value: unknown, allowNumber: boolean): string | undefined | false {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (allowNumber && typeof value === 'number' && Number.isFinite(value)) return String(value);
  return false;
}

/** true/false, or one of the words forms commonly send; null when the value is none of those. */
function asFlag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return null;
}

interface Found<T> {
  value: T;
  path: string;
}

/**
 * Reads an inbound webhook payload. For each contact detail the field mappings are tried first (in
 * order; the first whose source holds a value wins), then the default places of the specification. A
 * mapped place that holds a value of the wrong type is an error; a default place that does is skipped,
 * since payloads of outside tools use those names for their own purposes.
 */
class PayloadReader {
  readonly issues: ValidationIssue[] = [];
  readonly pointers = new Map<ContactField, string>();

  constructor(
    private readonly payload: Record<string, unknown>,
    private readonly mappings: readonly FieldMapping[],
  ) {}

  contact(): InboundContact {
    const contact: InboundContact = {};
    const phone = this.text('phone', true);
    if (phone) contact.phone = this.keep('phone', phone);
    const email = this.text('email', false);
    if (email) contact.email = this.keep('email', email);
    const externalId = this.text('external_id', true);
    if (externalId) contact.external_id = this.keep('external_id', externalId);
    const name = this.name();
    if (name) contact.name = this.keep('name', name);
    const consent = this.consent();
    if (consent) contact.marketing_consent = this.keep('marketing_consent', consent);
    const data = valueAt(this.payload, 'contact.data');
    if (isPlainObject(data)) contact.data = data;
    return contact;
  }

  retryId(): string | undefined {
    const id = this.payload.id;
    const text = asText(id, true);
    if (text === false || (text !== undefined && text.length > MAX_RETRY_ID_LENGTH)) {
      this.issue('id', `id must be a string of at most ${MAX_RETRY_ID_LENGTH} characters or a number.`);
      return undefined;
    }
    return text;
  }

  pointerFor(field: ContactField): string {
    return this.pointers.get(field) ?? `${POINTER_PREFIX}/contact/${field}`;
  }

  private keep<T>(field: ContactField, found: Found<T>): T {
    this.pointers.set(field, pointerOf(found.path));
    return found.value;
  }

  private mapped(target: FieldMappingTarget): string[] {
    return this.mappings.filter((mapping) => mapping.target === target).map((mapping) => mapping.source);
  }

  private text(field: 'phone' | 'email' | 'external_id', allowNumber: boolean): Found<string> | undefined {
    return (
      this.firstText(this.mapped(field), allowNumber, true) ??
      this.firstText(DEFAULT_PLACES[field], allowNumber, false)
    );
  }

  private firstText(
    paths: readonly string[],
    allowNumber: boolean,
    strict: boolean,
  ): Found<string> | undefined {
    for (const path of paths) {
      const text = asText(valueAt(this.payload, path), allowNumber);
      if (text === false) {
        if (strict) this.issue(path, `${path} must be ${allowNumber ? 'a string or a number' : 'a string'}.`);
        continue;
      }
      if (text !== undefined) return { value: text, path };
    }
    return undefined;
  }

  /** A mapped name; a name composed of mapped parts; the default places; first and last name there. */
  private name(): Found<string> | undefined {
    const mapped = this.firstText(this.mapped('name'), true, true);
    if (mapped) return mapped;
    const first = this.firstText(this.mapped('first_name'), true, true);
    const last = this.firstText(this.mapped('last_name'), true, true);
    if (first || last) return composed(first, last);
    const named = this.firstText(DEFAULT_PLACES.name, true, false);
    if (named) return named;
    for (const [firstPath, lastPath] of DEFAULT_NAME_PARTS) {
      const parts = [
        this.firstText([firstPath], true, false),
        this.firstText([lastPath], true, false),
      ] as const;
      if (parts[0] || parts[1]) return composed(...parts);
    }
    return undefined;
  }

  /**
   * An object of channels is taken as it is (validated like the events endpoint's); a flag (`opt_in`, or
   * a mapped boolean) grants or withdraws consent on every channel. A consent place holding anything else
   * is an error wherever it is: silently ignoring an opt-out is worse than refusing the payload.
   */
  private consent(): Found<MarketingConsentInput> | undefined {
    for (const path of [...this.mapped('marketing_consent'), ...DEFAULT_PLACES.marketing_consent]) {
      const value = valueAt(this.payload, path);
      if (value === undefined || value === null) continue;
      if (isPlainObject(value)) return { value: value as MarketingConsentInput, path };
      const flag = asFlag(value);
      if (flag === null) {
        this.issue(path, `${path} must be true or false, or an object of channels and booleans.`);
        return undefined;
      }
      return { value: Object.fromEntries(CONSENT_CHANNELS.map((channel) => [channel, flag])), path };
    }
    return undefined;
  }

  private issue(path: string, detail: string): void {
    this.issues.push({ detail, source: { pointer: pointerOf(path) } });
  }
}

function composed(first: Found<string> | undefined, last: Found<string> | undefined): Found<string> {
  return {
    value: [first?.value, last?.value].filter((part) => part !== undefined).join(' '),
    path: (first ?? last)!.path,
  };
}

/**
 * Turns a verified payload into the request it makes: an event recorded exactly as POST /api/v1/events
 * records one (same validation), or a contact-only write. The payload is what `readJsonBody` returned,
 * so the rules every body obeys (an object, valid text, bounded depth) hold already. Every refusal is
 * one 422 naming each problem where the payload has it.
 */
export function readInboundPayload(
  payload: Record<string, unknown>,
  mappings: readonly FieldMapping[],
): InboundRequest {
  const reader = new PayloadReader(payload, mappings);
  const contact = reader.contact();
  const retryId = reader.retryId();
  const event = payload.event;
  if (event !== undefined && event !== null && typeof event !== 'string') {
    reader.issues.push({
      detail: 'event must be an event name (a string).',
      source: { pointer: `${POINTER_PREFIX}/event` },
    });
  }
  if (reader.issues.length > 0) throw JsonApiException.validation(reader.issues);
  if (!contact.phone && !contact.email && !contact.external_id) {
    throw JsonApiException.validation([
      {
        detail:
          'The payload needs a phone, an email or an ID: phone, email, external_id, id, contact.phone, contact.email, contact.id, or a field mapping.',
        source: { pointer: `${POINTER_PREFIX}/contact` },
      },
    ]);
  }
  const withRetryId = retryId === undefined ? {} : { retryId };
  if (typeof event === 'string') {
    const body = plainToInstance(RecordEventBody, {
      name: event,
      contact,
      ...(payload.data !== undefined ? { data: payload.data } : {}),
      ...(payload.occurred_at !== undefined ? { occurred_at: payload.occurred_at } : {}),
    });
    refuseInvalid(validateSync(body, { whitelist: true, forbidNonWhitelisted: true }), '', reader);
    return { kind: 'event', event: body, ...withRetryId };
  }
  const errors = validateSync(plainToInstance(EventContactBody, contact), {
    whitelist: true,
    forbidNonWhitelisted: true,
  });
  refuseInvalid(errors, '/contact', reader);
  return { kind: 'contact', contact, ...withRetryId };
}

/** The events endpoint's errors, pointed at the places of the payload the values came from. */
function refuseInvalid(
  errors: ReturnType<typeof validateSync>,
  within: '' | '/contact',
  reader: PayloadReader,
): void {
  if (errors.length === 0) return;
  const contactPrefix = `${POINTER_PREFIX}/contact/`;
  const issues = validationErrorsToJsonApi(errors, { pointerPrefix: `${POINTER_PREFIX}${within}` }).map(
    (error) => {
      const pointer = error.source?.pointer ?? '';
      if (pointer === `${POINTER_PREFIX}/name`) {
        return {
          ...error,
          detail: error.detail.replace(/^name /, 'event '),
          source: { pointer: `${POINTER_PREFIX}/event` },
        };
      }
      if (!pointer.startsWith(contactPrefix)) return error;
      const [field, ...rest] = pointer.slice(contactPrefix.length).split('/');
      if (!isContactField(field)) return error;
      return { ...error, source: { pointer: [reader.pointerFor(field), ...rest].join('/') } };
    },
  );
  throw new JsonApiException(422, issues);
}

function isContactField(field: string | undefined): field is ContactField {
  return (
    field === 'name' ||
    field === 'phone' ||
    field === 'email' ||
    field === 'external_id' ||
    field === 'marketing_consent'
  );
}
