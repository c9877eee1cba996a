import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';

/** The record types of `cms.outcomes.v1`: the owning service's answer to one request record. */
export const OUTCOME_TYPES = {
  accepted: 'request.accepted',
  rejected: 'request.rejected',
} as const;

export class OutcomeErrorSource {
  @IsString()
  pointer!: string;
}

/** One JSON:API error object, exactly as the gateway will answer it. */
export class OutcomeError {
  @IsString()
  status!: string;

  @IsString()
  title!: string;

  @IsString()
  detail!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => OutcomeErrorSource)
  source?: OutcomeErrorSource;

  /** For a 500: the id that also stands in the service's log line. */
  @IsOptional()
  @IsString()
  id?: string;
}

export class RequestAcceptedV1 {
  /** The HTTP status the gateway answers with: 200, 201, 202 or 204. */
  @IsInt()
  @IsIn([200, 201, 202, 204])
  status!: number;

  /** The `data` member of the answer; absent for 204. */
  @IsOptional()
  @IsObject()
  resource?: Record<string, unknown>;
}

export class RequestRejectedV1 {
  @IsInt()
  @Min(400)
  @Max(599)
  status!: number;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => OutcomeError)
  errors!: OutcomeError[];
}

export const OUTCOME_RECORD_TYPES: RecordTypeDefinition[] = [
  { type: OUTCOME_TYPES.accepted, version: 1, schema: RequestAcceptedV1 },
  { type: OUTCOME_TYPES.rejected, version: 1, schema: RequestRejectedV1 },
];
