import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryResource } from '@cms/contracts';
import {
  choiceFilter,
  filterParam,
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

import { WebhookEndpointRepository } from '../../endpoints/webhook-endpoint.repository';
import { parseUuidId } from '../../reads/query-params';
import { WebhookDeliveryRepository } from '../webhook-delivery.repository';

/** The reads the gateway proxies for GET /api/v1/webhook-endpoints/{id}/deliveries[/{delivery_id}]. */
@Controller('internal/v1/webhook-endpoints/:id/deliveries')
export class DeliveriesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Newest first; `filter[status]` and `filter[event_type]` narrow the list. */
  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawEndpointId: string,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<WebhookDeliveryResource>> {
    const endpointId = parseUuidId(rawEndpointId, 'Webhook endpoint');
    const page = parsePagination(query);
    onlyFilters(query, ['status', 'event_type']);
    const status = choiceFilter(query, 'status', WEBHOOK_DELIVERY_STATUSES);
    const eventType = filterParam(query, 'event_type');
    await this.endpointOrNotFound(workspaceId, endpointId);
    const { rows, total } = await new WebhookDeliveryRepository(this.dataSource.manager).list(
      endpointId,
      { ...(status !== undefined ? { status } : {}), ...(eventType !== undefined ? { eventType } : {}) },
      toSqlWindow(page),
    );
    return toListBody(rows, pageMeta(total, page));
  }

  @Get(':delivery_id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawEndpointId: string,
    @Param('delivery_id') rawId: string,
  ): Promise<{ data: WebhookDeliveryResource }> {
    const endpointId = parseUuidId(rawEndpointId, 'Webhook endpoint');
    const id = parseUuidId(rawId, 'Delivery');
    await this.endpointOrNotFound(workspaceId, endpointId);
    const delivery = await new WebhookDeliveryRepository(this.dataSource.manager).findOne(endpointId, id);
    if (!delivery) throw JsonApiException.notFound(`Delivery ${id} was not found.`);
    return { data: delivery };
  }

  private async endpointOrNotFound(workspaceId: number, endpointId: string): Promise<void> {
    const endpoint = await new WebhookEndpointRepository(this.dataSource.manager).findInWorkspace(
      workspaceId,
      endpointId,
    );
    if (!endpoint) throw JsonApiException.notFound(`Webhook endpoint ${endpointId} was not found.`);
  }
}
