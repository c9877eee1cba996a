import {
  IsDefined,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';

/** CloudEvents 1.0 attribute names, JSON structured mode. */
export interface Envelope<TData = unknown> {
  specversion: '1.0';
  id: string;
  type: string;
  source: string;
  time: string;
  workspaceid: string;
  subject?: string;
  correlationid: string;
  causationid?: string;
  dataversion: number;
  data: TData;
}

/** The envelope's own shape, checked before the registry looks at `data`. */
export class EnvelopeShape {
  @Matches(/^1\.0$/)
  specversion!: string;

  @IsUUID()
  id!: string;

  @IsString()
  @Matches(/^[a-z][a-z0-9_.-]*$/)
  @MaxLength(200)
  type!: string;

  @IsString()
  @MaxLength(200)
  source!: string;

  @IsISO8601({ strict: true })
  time!: string;

  @IsString()
  @MaxLength(100)
  workspaceid!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  subject?: string;

  @IsString()
  @MaxLength(200)
  correlationid!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  causationid?: string;

  @IsInt()
  @Min(1)
  dataversion!: number;

  @IsDefined()
  data!: unknown;
}
