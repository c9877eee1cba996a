import { IsArray, IsInt, IsISO8601, IsOptional, IsString, Min } from 'class-validator';

import { CreateTagBody, TagAssignmentBody, UpdateTagBody } from './tag.bodies';

export const TAG_REQUEST_TYPES = {
  create: 'tag.create.requested',
  update: 'tag.update.requested',
  delete: 'tag.delete.requested',
  sync: 'tag.sync.requested',
  attach: 'tag.attach.requested',
  detach: 'tag.detach.requested',
} as const;

export const TAG_FACT_TYPES = {
  created: 'tag.created',
  updated: 'tag.updated',
  /** Consumers drop the tag from every contact that had it. */
  deleted: 'tag.deleted',
  contactTagsChanged: 'contact.tags-changed',
} as const;

// --- requests ---------------------------------------------------------------------------------

export class TagCreateRequestedV1 extends CreateTagBody {
  /** Minted by the gateway. */
  @IsInt()
  @Min(1)
  tag_id!: number;
}

export class TagUpdateRequestedV1 extends UpdateTagBody {
  /** From the path. */
  @IsInt()
  @Min(1)
  tag_id!: number;
}

export class TagDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  tag_id!: number;
}

/** tag.sync.requested, tag.attach.requested and tag.detach.requested: the body as sent. */
export class TagAssignmentRequestedV1 extends TagAssignmentBody {}

// --- facts ------------------------------------------------------------------------------------

/** tag.created and tag.updated. */
export class TagFactV1 {
  @IsInt()
  @Min(1)
  tag_id!: number;

  @IsString()
  name!: string;

  @IsOptional()
  @IsString()
  color!: string | null;

  @IsISO8601()
  at!: string;
}

export class TagDeletedV1 {
  @IsInt()
  @Min(1)
  tag_id!: number;

  @IsISO8601()
  at!: string;
}

export class ContactTagsChangedV1 {
  @IsInt()
  @Min(1)
  contact_id!: number;

  /** Every tag the contact has now. */
  @IsArray()
  @IsInt({ each: true })
  tag_ids!: number[];

  @IsArray()
  @IsInt({ each: true })
  added!: number[];

  @IsArray()
  @IsInt({ each: true })
  removed!: number[];

  @IsISO8601()
  at!: string;
}
