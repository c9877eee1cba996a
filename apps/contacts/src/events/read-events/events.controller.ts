import {
  filterParam,
  integerFilter,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  textParam,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Controller, Get, Inject } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { EventRepository, type EventFilters } from '../event.repository';
import { eventResource } from '../event.resource';

/** The read the gateway proxies for GET /api/v1/events: newest first. */
@Controller('internal/v1/events')
export class EventsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, ['name', 'contact_id']);
    const filters: EventFilters = {};
    const name = filterParam(query, 'name') ?? textParam(query, 'name');
    if (name !== undefined) filters.name = name;
    const contactId = integerFilter(query, 'contact_id');
    if (contactId !== undefined) filters.contactId = contactId;
    const { rows, total } = await new EventRepository(this.dataSource.manager).list(
      workspaceId,
      filters,
      toSqlWindow(page),
    );
    return toListBody(rows.map(eventResource), pageMeta(total, page));
  }
}
