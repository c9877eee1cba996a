import {
  acceptedOutcome,
  createEnvelope,
  deterministicId,
  INTEGRATION_FACT_TYPES,
  INTEGRATION_REQUEST_TYPES,
  rejectedOutcome,
  type DecodedRecord,
  type Envelope,
  type IntegrationCreateRequestedV1,
} from '@cms/contracts';
import { recordContext, type RecordContext } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { WorkspaceEntity } from '../workspaces/workspace.entity';
import type { IntegrationConfig } from './integration.entity';
import { IntegrationRepository } from './integration.repository';
import { integrationResource } from './integration.resource';

const SOURCE = 'gateway';

/**
 * Decides the integration requests from the ordered log, from the record and the gateway's own tables
 * only, so replaying the log rebuilds the same rows. The record carries the secrets sealed; they are
 * stored as they arrive and never opened here.
 */
@Controller()
export class IntegrationRequestsConsumer {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @EventPattern(INTEGRATION_REQUEST_TYPES.create)
  async createIntegration(
    @Payload() record: DecodedRecord<IntegrationCreateRequestedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const data = record.data;
    const workspaceId = Number(record.workspaceid);
    const integrations = new IntegrationRepository(context.manager);
    if (!(await context.manager.getRepository(WorkspaceEntity).existsBy({ id: workspaceId }))) {
      this.answer(
        context,
        this.refusal(record, 404, 'Not Found', `Workspace ${record.workspaceid} was not found.`),
      );
      return;
    }
    if (
      (await integrations.idTaken(data.integration_id)) ||
      (await integrations.tokenTaken(data.token_hash))
    ) {
      this.answer(
        context,
        this.refusal(record, 409, 'Conflict', `Integration ${data.integration_id} already exists.`),
      );
      return;
    }
    const at = new Date(record.time);
    const config: IntegrationConfig = {
      sync_frequency: data.config.sync_frequency ?? null,
      field_mappings: (data.config.field_mappings ?? []).map(({ source, target }) => ({ source, target })),
    };
    const integration = {
      id: data.integration_id,
      workspaceId,
      type: data.type,
      name: data.name,
      config,
      credentialsSealed: data.credentials_sealed ?? null,
      signingSecretSealed: data.signing_secret_sealed,
      tokenHash: data.token_hash,
      createdAt: at,
      updatedAt: at,
    };
    await integrations.insert(integration);
    context.emit(
      this.config.topics.gateway,
      createEnvelope({
        id: deterministicId(record.id, INTEGRATION_FACT_TYPES.created),
        type: INTEGRATION_FACT_TYPES.created,
        source: SOURCE,
        workspaceid: record.workspaceid,
        subject: String(integration.id),
        correlationid: record.correlationid,
        causationid: record.id,
        time: record.time,
        data: {
          integration_id: integration.id,
          workspace_id: workspaceId,
          type: integration.type,
          name: integration.name,
          at: record.time,
        },
      }),
    );
    this.answer(context, acceptedOutcome(record, SOURCE, 201, integrationResource(integration)));
  }

  private refusal(record: DecodedRecord, status: number, title: string, detail: string): Envelope {
    return rejectedOutcome(record, SOURCE, status, [{ status: String(status), title, detail }]);
  }

  private answer(context: RecordContext, outcome: Envelope): void {
    context.emit(this.config.topics.outcomes, outcome);
  }
}
