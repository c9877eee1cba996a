import {
  JsonApiException,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  type ListBody,
} from '@cms/http';
import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { filterParam, parseId, type Query as QueryParams } from '../../reads/query-params';
import { WorkspaceId } from '../../reads/workspace-id.decorator';
import { ContactRepository, type ContactFilters } from '../contact.repository';
import { contactResource } from '../contact.resource';
import { eventPhone } from '../phone-number';

function contactFilters(query: QueryParams): ContactFilters {
  const filters: ContactFilters = {};
  const phone = filterParam(query, 'phone');
  if (phone !== undefined) filters.phone = eventPhone(phone);
  const email = filterParam(query, 'email');
  if (email !== undefined) filters.email = email.trim();
  const externalId = filterParam(query, 'external_id');
  if (externalId !== undefined) filters.externalId = externalId;
  const tag = filterParam(query, 'tag');
  if (tag !== undefined) {
    if (/^[1-9][0-9]{0,14}$/.test(tag)) filters.tagId = Number(tag);
    else filters.tagName = tag;
  }
  const search = filterParam(query, 'search');
  if (search !== undefined) filters.search = search.trim();
  return filters;
}

/** The reads the gateway proxies for GET /api/v1/contacts[/{id}]. */
@Controller('internal/v1/contacts')
export class ContactsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @Query() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    const contacts = new ContactRepository(this.dataSource.manager);
    const { rows, total } = await contacts.list(workspaceId, contactFilters(query), toSqlWindow(page));
    const views = await contacts.views(rows);
    return toListBody(views.map(contactResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const id = parseId(rawId, 'Contact');
    const contacts = new ContactRepository(this.dataSource.manager);
    const contact = await contacts.findOne(workspaceId, id);
    if (!contact) throw JsonApiException.notFound(`Contact ${rawId} was not found.`);
    return { data: contactResource(await contacts.view(contact)) };
  }
}
