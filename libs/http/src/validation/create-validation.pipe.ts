import { memoizeValidationMetadata } from '@cms/contracts';
import { type ValidationError, ValidationPipe } from '@nestjs/common';

import { JsonApiException } from '../errors/json-api.exception';
import { validationErrorsToJsonApi } from './validation-errors.mapper';

/**
 * The one validation pipe of every service: unknown fields are refused rather than dropped (a client's
 * typo must not pass silently), payloads become DTO instances, and every failed constraint comes back
 * in a single 422.
 */
export function createValidationPipe(): ValidationPipe {
  // Every request body is validated: the rules of its class are looked up once, not per request.
  memoizeValidationMetadata();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) =>
      new JsonApiException(422, validationErrorsToJsonApi(errors)),
  });
}
