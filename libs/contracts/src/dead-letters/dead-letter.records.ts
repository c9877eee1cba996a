import { IsBoolean, IsInt, IsOptional, IsString, Min } from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';

export const DEAD_LETTER_TYPE = 'record.deadlettered';

/** A record a consumer could not apply, kept with where it came from and why. */
export class RecordDeadLetteredV1 {
  @IsString()
  consumer!: string;

  @IsString()
  topic!: string;

  @IsInt()
  @Min(0)
  partition!: number;

  @IsString()
  offset!: string;

  @IsOptional()
  @IsString()
  key?: string;

  /**
   * The original value, base64, so that even a value that is not JSON survives; its first bytes only
   * when `truncated` (the consumer's `dead_letters` table keeps all of it).
   */
  @IsString()
  value!: string;

  /** The original value's size in bytes. */
  @IsOptional()
  @IsInt()
  @Min(0)
  value_bytes?: number;

  /** `value` holds only the first bytes of the original, so that the dead letter stays bounded in size. */
  @IsOptional()
  @IsBoolean()
  truncated?: boolean;

  @IsString()
  reason!: string;

  @IsString()
  detail!: string;
}

export const DEAD_LETTER_RECORD_TYPES: RecordTypeDefinition[] = [
  { type: DEAD_LETTER_TYPE, version: 1, schema: RecordDeadLetteredV1 },
];
