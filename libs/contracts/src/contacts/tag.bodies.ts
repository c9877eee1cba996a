import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { AreIds, IsId, IsNotBlank } from '../rules/field-rules';
import { IsOptionalNotNull } from './channels';

/** `#rrggbb`, or the short `#rgb`. */
export const TAG_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;
export const MAX_TAG_NAME = 255;
/** Tag ids in one sync, attach or detach at most. */
export const MAX_TAG_IDS = 100;
/** Tags one contact holds at most: every contact fact and answer carries them (extensions §6). */
export const MAX_TAGS_PER_CONTACT = 1000;

const COLOR_MESSAGE = 'color must be a hex colour code such as #1a2b3c';

/** `POST /api/v1/tags`. */
export class CreateTagBody {
  @IsString()
  @IsNotBlank()
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
  @IsNotBlank()
  @MaxLength(MAX_TAG_NAME)
  name?: string;

  @IsOptional()
  @IsString()
  @Matches(TAG_COLOR_PATTERN, { message: COLOR_MESSAGE })
  color?: string | null;
}

/** `POST /api/v1/tags/sync`, `/attach` and `/detach`. */
export class TagAssignmentBody {
  @IsId()
  contact_id!: number;

  @IsArray()
  @ArrayMaxSize(MAX_TAG_IDS)
  @AreIds()
  tag_ids!: number[];
}
