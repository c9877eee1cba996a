import {
  IsNotBlank,
  IsOptionalNotNull,
  PERMISSIONS,
  PLANS,
  type Permission,
  type Plan,
} from '@cms/contracts';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  MaxLength,
} from 'class-validator';

export class CreateWorkspaceDto {
  @IsString()
  @IsNotBlank()
  @MaxLength(255)
  name!: string;

  @IsIn(PLANS, { message: `plan must be one of ${PLANS.join(', ')}` })
  plan!: Plan;
}

/** Both optional, neither may be cleared: a null name or plan is refused. */
export class UpdateWorkspaceDto {
  @IsOptionalNotNull()
  @IsString()
  @IsNotBlank()
  @MaxLength(255)
  name?: string;

  @IsOptionalNotNull()
  @IsIn(PLANS, { message: `plan must be one of ${PLANS.join(', ')}` })
  plan?: Plan;
}

export class CreateApiKeyDto {
  @IsString()
  @IsNotBlank()
  @MaxLength(255)
  name!: string;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true, message: `each permission must be one of ${PERMISSIONS.join(', ')}` })
  permissions!: Permission[];
}
