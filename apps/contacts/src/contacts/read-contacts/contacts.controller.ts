import {
  filterParam,
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parseIdentifier,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ContactIdsBody } from '@cms/contracts';
import { parseId } from '../../reads/query-params';
import { ContactRepository, type ContactFilters } from '../contact.repository';
import { contactResource } from '../contact.resource';
import { eventPhone } from '../phone-number';

/** The filters of GET /api/v1/contacts (extensions §2), and `tag` and `search` besides. */
const CONTACT_FILTERS = ['phone', 'email', 'external_id', 'name', 'tag', 'search'] as const;

function contactFilters(query: QueryParams): ContactFilters {
  onlyFilters(query, CONTACT_FILTERS);
  const filters: ContactFilters = {};
  const phone = filterParam(query, 'phone');
  if (phone !== undefined) filters.phone = eventPhone(phone);
  const email = filterParam(query, 'email');
  if (email !== undefined) filters.email = email.trim();
  const externalId = filterParam(query, 'external_id');
  if (externalId !== undefined) filters.externalId = externalId;
  const name = filterParam(query, 'name');
  if (name !== undefined) filters.name = name.trim();
  const tag = filterParam(query, 'tag');
  if (tag !== undefined) {
    const tagId = parseIdentifier(tag);
    if (tagId !== undefined) filters.tagId = tagId;
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
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    const contacts = new ContactRepository(this.dataSource.manager);
    const { rows, total } = await contacts.list(workspaceId, contactFilters(query), toSqlWindow(page));
    const views = await contacts.views(rows);
    return toListBody(views.map(contactResource), pageMeta(total, page));
  }

  /**
   * Which of these ids name no contact of the workspace (another workspace's included): the gateway
   * asks before an audience's contact lists enter the log, and for the contacts of sends it has not
   * seen yet (many sends' at once), in one statement however long the list.
   */
  @Post('unknown')
  @HttpCode(200)
  async unknown(
    @WorkspaceId() workspaceId: number,
    @Body() body: ContactIdsBody,
  ): Promise<{ data: { unknown: number[] } }> {
    const ids = [...new Set(body.contact_ids)];
    const rows: Array<{ id: string }> = await this.dataSource.query(
      'SELECT id FROM contacts WHERE workspace_id = $1 AND id = ANY($2::bigint[])',
      [workspaceId, ids],
    );
    const known = new Set(rows.map((row) => Number(row.id)));
    return { data: { unknown: ids.filter((id) => !known.has(id)) } };
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
