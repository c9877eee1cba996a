import { OutboxRelay } from '@cms/kafka';
import { LOGGER } from '@cms/service-kit';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { AddressPolicy } from '@cms/http';
import type { Resolver } from '@cms/http';
import { DeliveryQueueRepository } from './delivery-queue.repository';
import { DeliveryWorker } from './delivery.worker';
import { EndpointGates } from './endpoint-gates';
import { WebhookSender } from './webhook.sender';

/** What only in-process tests change: the name resolution and the trusted roots of the sender. */
export interface SenderOverrides {
  resolve?: Resolver;
  ca?: string | string[];
}

/** Closes the breakers and the sender's connections, after the kit stopped the worker that used them. */
class SenderLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(WebhookSender) private readonly sender: WebhookSender,
    @Inject(EndpointGates) private readonly gates: EndpointGates,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.gates.shutdown();
    await this.sender.close();
  }
}

/** Sending: the delivery worker (started by the kit in the live service only), its sender and breakers. */
@Module({})
export class DispatchModule {
  static forRoot(overrides: SenderOverrides = {}): DynamicModule {
    return {
      module: DispatchModule,
      providers: [
        {
          provide: WebhookSender,
          inject: [WEBHOOK_DISPATCH_CONFIG, AddressPolicy],
          useFactory: (config: WebhookDispatchConfig, policy: AddressPolicy) =>
            new WebhookSender({ policy, timeoutMs: config.timeoutMs, ...overrides }),
        },
        {
          provide: EndpointGates,
          inject: [WEBHOOK_DISPATCH_CONFIG, LOGGER],
          useFactory: (config: WebhookDispatchConfig, logger: Logger) =>
            new EndpointGates({ resetMs: config.worker.breakerResetMs, logger }),
        },
        {
          provide: DeliveryWorker,
          inject: [
            WEBHOOK_DISPATCH_CONFIG,
            LOGGER,
            DataSource,
            WebhookSender,
            EndpointGates,
            OutboxRelay,
            Registry,
          ],
          useFactory: (
            config: WebhookDispatchConfig,
            logger: Logger,
            dataSource: DataSource,
            sender: WebhookSender,
            gates: EndpointGates,
            relay: OutboxRelay,
            metrics: Registry,
          ) =>
            new DeliveryWorker({
              queue: new DeliveryQueueRepository(dataSource, {
                retryDelaysSeconds: config.retryDelaysSeconds,
                requestsTopic: config.topics.requests,
              }),
              sender,
              gates,
              config: config.worker,
              timeoutMs: config.timeoutMs,
              secretsKey: config.secretsKey,
              databaseUrl: config.databaseUrl,
              schema: config.databaseSchema,
              logger: logger.child({ component: 'delivery-worker' }),
              metrics,
              onOutboxWritten: () => relay.kick(),
            }),
        },
        SenderLifecycle,
      ],
      exports: [DeliveryWorker, EndpointGates],
    };
  }
}
