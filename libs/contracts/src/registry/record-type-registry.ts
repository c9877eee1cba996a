import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { EnvelopeShape, type Envelope } from '../envelope/envelope';
import { TransformNeeds } from './transform-needs';
import { memoizeValidationMetadata } from './validation-metadata-cache';

export type RecordClass<T = object> = new () => T;

/** Turns the data of version N into the data of version N + 1. Pure; no I/O. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

export interface RecordTypeDefinition {
  type: string;
  version: number;
  schema: RecordClass;
  /** How data of this version becomes data of `version + 1`; required on every version but the latest. */
  upcast?: Upcaster;
}

export type RecordDecodeFailure =
  'malformed' | 'invalid_envelope' | 'unknown_type' | 'unknown_version' | 'invalid_data';

/** A record that can never be applied as it is: the consumer dead-letters it instead of retrying. */
export class RecordDecodeError extends Error {
  constructor(
    readonly reason: RecordDecodeFailure,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'RecordDecodeError';
  }
}

export interface DecodedRecord<T = unknown> extends Envelope<T> {
  /** The version the data was written with, before upcasting. */
  writtenVersion: number;
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => `${path}: ${text}`);
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/**
 * Every record type and version the system knows, with the class that validates its data.
 * Consumers validate every record on read through `decode`: a record is either a validated instance
 * of its latest version or a RecordDecodeError.
 */
export class RecordTypeRegistry {
  private readonly versions = new Map<string, Map<number, RecordTypeDefinition>>();
  private readonly transforms = new TransformNeeds();

  constructor() {
    // Every record is validated on read: the rules of its class are looked up once, not per record.
    memoizeValidationMetadata();
  }

  register(...definitions: RecordTypeDefinition[]): this {
    for (const definition of definitions) {
      const byVersion = this.versions.get(definition.type) ?? new Map<number, RecordTypeDefinition>();
      if (byVersion.has(definition.version)) {
        throw new Error(`record type ${definition.type} v${definition.version} is registered twice`);
      }
      byVersion.set(definition.version, definition);
      this.versions.set(definition.type, byVersion);
    }
    return this;
  }

  has(type: string): boolean {
    return this.versions.has(type);
  }

  types(): string[] {
    return [...this.versions.keys()].sort();
  }

  latestVersion(type: string): number {
    const byVersion = this.versions.get(type);
    if (!byVersion) throw new Error(`record type ${type} is not registered`);
    return Math.max(...byVersion.keys());
  }

  /** Checks that every version but the latest has an upcaster and that there are no gaps. */
  assertComplete(): void {
    for (const [type, byVersion] of this.versions) {
      const latest = Math.max(...byVersion.keys());
      for (let version = 1; version <= latest; version += 1) {
        const definition = byVersion.get(version);
        if (!definition) throw new Error(`record type ${type} has no version ${version}`);
        if (version < latest && !definition.upcast) {
          throw new Error(`record type ${type} v${version} has no upcaster to v${version + 1}`);
        }
      }
    }
  }

  /** Parses, upcasts and validates one record value. */
  decode<T = unknown>(value: Buffer | string | null): DecodedRecord<T> {
    if (value === null) throw new RecordDecodeError('malformed', 'record has no value');
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
    } catch {
      throw new RecordDecodeError('malformed', 'record value is not JSON');
    }
    return this.validate<T>(parsed);
  }

  validate<T = unknown>(parsed: unknown): DecodedRecord<T> {
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new RecordDecodeError('malformed', 'record value is not a JSON object');
    }
    // The envelope's own attributes only: a shallow instance. plainToInstance would also copy the whole
    // data tree, which is validated (and copied) below against its own class.
    const envelopeErrors = validateSync(Object.assign(new EnvelopeShape(), parsed));
    if (envelopeErrors.length > 0) {
      throw new RecordDecodeError('invalid_envelope', 'record envelope is invalid', describe(envelopeErrors));
    }
    const envelope = parsed as Envelope<Record<string, unknown>>;
    const byVersion = this.versions.get(envelope.type);
    if (!byVersion)
      throw new RecordDecodeError('unknown_type', `record type ${envelope.type} is not registered`);
    const latest = Math.max(...byVersion.keys());
    if (!byVersion.has(envelope.dataversion) || envelope.dataversion > latest) {
      throw new RecordDecodeError(
        'unknown_version',
        `record type ${envelope.type} has no version ${envelope.dataversion}`,
      );
    }
    if (typeof envelope.data !== 'object' || envelope.data === null || Array.isArray(envelope.data)) {
      throw new RecordDecodeError('invalid_data', `data of ${envelope.type} is not an object`);
    }
    let data = envelope.data;
    for (let version = envelope.dataversion; version < latest; version += 1) {
      const upcast = byVersion.get(version)?.upcast;
      if (!upcast)
        throw new RecordDecodeError('unknown_version', `${envelope.type} v${version} cannot be upcast`);
      data = upcast(data);
    }
    const schema = byVersion.get(latest)!.schema;
    const instance = this.transforms.needed(schema, data)
      ? plainToInstance(schema, data)
      : Object.assign(new (schema as new () => object)(), data);
    const dataErrors = validateSync(instance, { forbidUnknownValues: true });
    if (dataErrors.length > 0) {
      throw new RecordDecodeError(
        'invalid_data',
        `data of ${envelope.type} v${latest} is invalid`,
        describe(dataErrors),
      );
    }
    return { ...envelope, data: instance as T, dataversion: latest, writtenVersion: envelope.dataversion };
  }
}

/** The record types a service's view reads from another service's topic, and the test for them. */
export interface RecordSelection {
  /** Their definitions, for the service's record types. */
  readonly definitions: RecordTypeDefinition[];
  takes(record: Pick<DecodedRecord, 'type'>): boolean;
}

/** The `types` among `definitions` (another service's): what a projection of its facts reads. */
export function selectRecordTypes(
  types: readonly string[],
  definitions: readonly RecordTypeDefinition[],
): RecordSelection {
  const selected = new Set(types);
  return {
    definitions: definitions.filter((definition) => selected.has(definition.type)),
    takes: (record) => selected.has(record.type),
  };
}
