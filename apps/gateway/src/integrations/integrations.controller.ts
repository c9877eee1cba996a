import { CreateIntegrationBody, encryptSecret, INTEGRATION_REQUEST_TYPES } from '@cms/contracts';
import {
  JsonApiException,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  type ListBody,
} from '@cms/http';
import { Body, Controller, Get, Inject, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { WritePathService } from '../write-path/write-path.service';
import type { IntegrationConfig } from './integration.entity';
import { IntegrationRepository } from './integration.repository';
import { integrationResource } from './integration.resource';
import { mintInboundWebhook, webhookUrl } from './integration.secrets';

const READ = { permission: 'read', bucket: 'api', feature: 'api' } as const;
const CREATE = { permission: 'create', bucket: 'api', feature: 'api' } as const;

/**
 * Integrations belong to the gateway (DESIGN §1): it mints the URL token and the signing secret, puts
 * them on the log only sealed or hashed, decides the request from the log itself, and serves reads from
 * its own table.
 */
@Controller('api/v1/integrations')
export class IntegrationsController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  @Post()
  @PublicRoute(CREATE)
  @Documented({
    tag: 'Integrations',
    summary: 'Create an integration',
    description:
      'Mints the integration’s inbound webhook: `webhook_url` and `signing_secret` are shown in this ' +
      'answer only (no later answer shows them, and there is no rotation: a lost one means a new ' +
      'integration). `credentials` are stored sealed and never answered. A left-out `config` is answered ' +
      'as `{"sync_frequency": null, "field_mappings": []}`. Needs the `create` permission.',
    answers: {
      201: {
        description: 'Created: the integration with its webhook URL and signing secret.',
        schema: one('IntegrationCreated'),
      },
    },
  })
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateIntegrationBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: Record<string, unknown> }> {
    const id = await this.ids.next('integration');
    const minted = mintInboundWebhook();
    const config: IntegrationConfig = {
      sync_frequency: body.config?.sync_frequency ?? null,
      field_mappings: (body.config?.field_mappings ?? []).map(({ source, target }) => ({ source, target })),
    };
    const key = this.config.secretsKey;
    const answer = await this.writePath.submit({
      type: INTEGRATION_REQUEST_TYPES.create,
      workspaceId: caller.workspaceId,
      subject: String(id),
      data: {
        integration_id: id,
        type: body.type,
        name: body.name,
        config,
        credentials_sealed:
          body.credentials === undefined ? null : encryptSecret(JSON.stringify(body.credentials), key),
        signing_secret_sealed: encryptSecret(minted.signingSecret, key),
        token_hash: minted.tokenHash,
      },
    });
    void reply.status(answer.status);
    // The URL and the secret exist in the clear only here, as an API key does in its creation answer.
    return {
      data: {
        ...answer.resource,
        webhook_url: webhookUrl(minted.token, this.config.publicBaseUrl),
        signing_secret: minted.signingSecret,
      },
    };
  }

  @Get()
  @PublicRoute(READ)
  @Documented({
    tag: 'Integrations',
    summary: 'List integrations',
    description: 'Oldest first; never the URL, the secret or the credentials. Needs the `read` permission.',
    list: { filters: {} },
    answers: { 200: { description: 'A page of integrations.', schema: page('Integration') } },
  })
  async list(
    @Caller() caller: Principal,
    @Query() query: Record<string, unknown>,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    const { rows, total } = await new IntegrationRepository(this.dataSource.manager).list(
      caller.workspaceId,
      toSqlWindow(page),
    );
    return toListBody(rows.map(integrationResource), pageMeta(total, page));
  }

  @Get(':id')
  @PublicRoute(READ)
  @Documented({
    tag: 'Integrations',
    summary: 'Get an integration',
    description: 'Never the URL, the secret or the credentials. Needs the `read` permission.',
    answers: { 200: { description: 'The integration.', schema: one('Integration') } },
  })
  async one(
    @Caller() caller: Principal,
    @PathId('id', 'Integration') id: number,
  ): Promise<{ data: Record<string, unknown> }> {
    const integration = await new IntegrationRepository(this.dataSource.manager).findOne(
      caller.workspaceId,
      id,
    );
    if (!integration) throw JsonApiException.notFound(`Integration ${id} was not found.`);
    return { data: integrationResource(integration) };
  }
}
