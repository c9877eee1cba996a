import { IsBase64, IsIn, IsObject, IsString, MaxLength } from 'class-validator';

/**
 * What the gateway asks about a request to `/webhook/provider/<token>` before it records anything: the
 * request as the provider made it.
 */
export class CallbackVerificationBody {
  @IsString()
  @MaxLength(512)
  token!: string;

  @IsIn(['GET', 'POST'])
  method!: 'GET' | 'POST';

  /** The public address the provider called, path and query included (Twilio signs it). */
  @IsString()
  @MaxLength(8192)
  url!: string;

  /** Each query parameter once. */
  @IsObject()
  query!: Record<string, string>;

  /** Lower-case names. */
  @IsObject()
  headers!: Record<string, string>;

  @IsString()
  @IsBase64()
  body_base64!: string;
}
