import { AreIds, type OutcomeError } from '@cms/contracts';
import { Body, Controller, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { plainToInstance, Type } from 'class-transformer';
import {
  IsArray,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  validate,
  ValidateNested,
} from 'class-validator';

import type { JsonApiErrorBody } from '../errors/json-api.exception';
import { createHttpTestApp } from '../test-support/http-test-app';
import { validationErrorsToJsonApi } from './validation-errors.mapper';

class ContactDto {
  @IsEmail()
  email!: string;

  @IsOptional()
  @IsString()
  @MaxLength(30)
  phone?: string;
}

class CreateEventDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @IsInt()
  @Min(1)
  count!: number;

  @IsObject()
  @ValidateNested()
  @Type(() => ContactDto)
  contact!: ContactDto;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ContactDto)
  contacts?: ContactDto[];
}

@Controller('events')
class EventsController {
  @Post()
  create(@Body() body: CreateEventDto): { data: { is_dto: boolean; count: number } } {
    return { data: { is_dto: body instanceof CreateEventDto, count: body.count } };
  }
}

class TagIdsDto {
  @AreIds()
  tag_ids!: number[];
}

@Controller('tag-ids')
class TagIdsController {
  @Post()
  create(@Body() body: TagIdsDto): { data: number[] } {
    return { data: body.tag_ids };
  }
}

const VALID = { name: 'order.placed', count: 2, contact: { email: 'ada@example.com' } };

describe('createValidationPipe', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    ({ app } = await createHttpTestApp({ controllers: [EventsController, TagIdsController] }));
  });

  afterAll(async () => {
    await app.close();
  });

  async function post(payload: object): Promise<{ status: number; errors: JsonApiErrorBody['errors'] }> {
    const response = await app.inject({ method: 'POST', url: '/events', payload });
    const body = JSON.parse(response.body) as Partial<JsonApiErrorBody>;
    return { status: response.statusCode, errors: body.errors ?? [] };
  }

  it('passes a valid body to the handler as a DTO instance', async () => {
    const response = await app.inject({ method: 'POST', url: '/events', payload: VALID });

    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body)).toEqual({ data: { is_dto: true, count: 2 } });
  });

  it('answers one 422 listing every failed constraint, each with its pointer', async () => {
    const { status, errors } = await post({ name: '', count: 0, contact: { email: 'nope' } });

    expect(status).toBe(422);
    expect(errors).toEqual(
      expect.arrayContaining([
        {
          status: '422',
          title: 'Validation Error',
          detail: 'name should not be empty',
          source: { pointer: '/data/attributes/name' },
        },
        {
          status: '422',
          title: 'Validation Error',
          detail: 'count must not be less than 1',
          source: { pointer: '/data/attributes/count' },
        },
        {
          status: '422',
          title: 'Validation Error',
          detail: 'email must be an email',
          source: { pointer: '/data/attributes/contact/email' },
        },
      ]),
    );
    expect(errors).toHaveLength(3);
  });

  it('points into array items by index', async () => {
    const { status, errors } = await post({
      ...VALID,
      contacts: [
        { email: 'a@example.com' },
        { email: 'b@example.com' },
        { email: 'c@example.com' },
        { email: 'd@example.com', phone: '1'.repeat(31) },
      ],
    });

    expect(status).toBe(422);
    expect(errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: 'phone must be shorter than or equal to 30 characters',
        source: { pointer: '/data/attributes/contacts/3/phone' },
      },
    ]);
  });

  it('refuses unknown fields, naming each, at the top level and nested', async () => {
    const { status, errors } = await post({
      ...VALID,
      nickname: 'x',
      contact: { email: 'a@example.com', fax: 1 },
    });

    expect(status).toBe(422);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          detail: 'property nickname should not exist',
          source: { pointer: '/data/attributes/nickname' },
        }),
        expect.objectContaining({
          detail: 'property fax should not exist',
          source: { pointer: '/data/attributes/contact/fax' },
        }),
      ]),
    );
    expect(errors).toHaveLength(2);
  });

  it('points at each bad item of an id list by its index', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/tag-ids',
      payload: { tag_ids: [1, '2', 3, 0.5] },
    });
    const { errors } = JSON.parse(response.body) as JsonApiErrorBody;

    expect(response.statusCode).toBe(422);
    expect(errors.map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/tag_ids/1',
      '/data/attributes/tag_ids/3',
    ]);
  });

  it('reports a missing nested object at its own pointer', async () => {
    const { status, errors } = await post({ name: 'order.placed', count: 1 });

    expect(status).toBe(422);
    expect(errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: 'contact must be an object',
        source: { pointer: '/data/attributes/contact' },
      },
    ]);
  });
});

describe('validationErrorsToJsonApi', () => {
  it('turns hand-run class-validator errors into error objects a Kafka outcome can carry', async () => {
    const dto = plainToInstance(CreateEventDto, { name: 'x', count: 1, contact: { email: 'bad' } });

    const errors: OutcomeError[] = validationErrorsToJsonApi(await validate(dto));

    expect(errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: 'email must be an email',
        source: { pointer: '/data/attributes/contact/email' },
      },
    ]);
  });

  it('escapes "/" and "~" inside field names, as JSON Pointer requires', () => {
    const [error] = validationErrorsToJsonApi([
      { property: 'data', children: [{ property: 'a/b~c', constraints: { isString: 'must be a string' } }] },
    ]);

    expect(error.source?.pointer).toBe('/data/attributes/data/a~1b~0c');
  });

  it('stops at the given number of errors', () => {
    const many = Array.from({ length: 500 }, (_, index) => ({
      property: String(index),
      constraints: { isString: 'must be a string' },
    }));

    expect(validationErrorsToJsonApi(many)).toHaveLength(100);
    expect(validationErrorsToJsonApi(many, { maxErrors: 3 })).toHaveLength(3);
  });

  it('takes another pointer prefix for objects that are not the body attributes', () => {
    const [error] = validationErrorsToJsonApi([{ property: 'since', constraints: { isDate: 'bad date' } }], {
      pointerPrefix: '/data',
    });

    expect(error.source?.pointer).toBe('/data/since');
  });
});
