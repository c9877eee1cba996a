import { PERMISSIONS, PLANS, type Permission, type Plan } from '@cms/contracts';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';

export class CreateWorkspaceDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;

  @IsIn(PLANS, { message: `plan must be one of ${PLANS.join(', ')}` })
  plan!: Plan;
}

export class UpdateWorkspaceDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @IsIn(PLANS, { message: `plan must be one of ${PLANS.join(', ')}` })
  plan?: Plan;
}

export class CreateApiKeyDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true, message: `each permission must be one of ${PERMISSIONS.join(', ')}` })
  permissions!: Permission[];
}
