import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';

import { IsOptionalNotNull } from './channels';

/** `#rrggbb`, or the short `#rgb`. */
export const TAG_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;
export const MAX_TAG_NAME = 255;
/** Tag ids in one sync, attach or detach at most. */
export const MAX_TAG_IDS = 100;

const COLOR_MESSAGE = 'color must be a hex colour code such as #1a2b3c';

/** `POST /api/v1/tags`. */
export class CreateTagBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_TAG_NAME)
  name!: string;

  @IsOptional()
  @IsString()
  @Matches(TAG_COLOR_PATTERN, { message: COLOR_MESSAGE })
  color?: string | null;
}

/** `PATCH /api/v1/tags/{tag_id}`; a null colour clears it. */
export class UpdateTagBody {
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_TAG_NAME)
  name?: string;

  @IsOptional()
  @IsString()
  @Matches(TAG_COLOR_PATTERN, { message: COLOR_MESSAGE })
  color?: string | null;
}

/** `POST /api/v1/tags/sync`, `/attach` and `/detach`. */
export class TagAssignmentBody {
  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsArray()
  @ArrayMaxSize(MAX_TAG_IDS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  tag_ids!: number[];
}
