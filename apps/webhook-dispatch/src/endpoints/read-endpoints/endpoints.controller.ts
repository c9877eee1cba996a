import type { WebhookEndpointResource } from '@cms/contracts';
import {
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { parseUuidId } from '../../reads/query-params';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';
import { endpointResource } from '../webhook-endpoint.resource';

/** The reads the gateway proxies for GET /api/v1/webhook-endpoints[/{id}]; never a secret. */
@Controller('internal/v1/webhook-endpoints')
export class EndpointsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<WebhookEndpointResource>> {
    const page = parsePagination(query);
    onlyFilters(query, []);
    const endpoints = new WebhookEndpointRepository(this.dataSource.manager);
    const { rows, total } = await endpoints.list(workspaceId, toSqlWindow(page));
    const failures = await endpoints.failureCounts(rows.map((row) => row.id));
    return toListBody(
      rows.map((row) => endpointResource(row, failures.get(row.id) ?? 0)),
      pageMeta(total, page),
    );
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: WebhookEndpointResource }> {
    const id = parseUuidId(rawId, 'Webhook endpoint');
    const endpoints = new WebhookEndpointRepository(this.dataSource.manager);
    const endpoint = await endpoints.findInWorkspace(workspaceId, id);
    if (!endpoint) throw JsonApiException.notFound(`Webhook endpoint ${id} was not found.`);
    return { data: endpointResource(endpoint, await endpoints.failureCount(id)) };
  }
}
