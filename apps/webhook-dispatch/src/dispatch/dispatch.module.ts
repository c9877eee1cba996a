import { ReadinessRegistry } from '@cms/http';
import { OutboxRelay } from '@cms/kafka';
import {
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { LOGGER } from '../infrastructure/infrastructure.module';
import { AddressPolicy } from '../ssrf/address-policy';
import type { Resolver } from '../ssrf/guarded-connector';
import { DeliveryQueueRepository } from './delivery-queue.repository';
import { DeliveryWorker } from './delivery.worker';
import { EndpointGates } from './endpoint-gates';
import { WebhookSender } from './webhook.sender';

/** What only in-process tests change: the name resolution and the trusted roots of the sender. */
export interface SenderOverrides {
  resolve?: Resolver;
  ca?: string | string[];
}

/** Starts the worker once the app is up and stops it (letting attempts in flight finish) before the connections close. */
class WorkerLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(DeliveryWorker) private readonly worker: DeliveryWorker,
    @Inject(WebhookSender) private readonly sender: WebhookSender,
    @Inject(EndpointGates) private readonly gates: EndpointGates,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.worker.start();
    this.readiness.register('delivery-worker', () => this.worker.isRunning);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker.stop();
    this.gates.shutdown();
    await this.sender.close();
  }
}

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
        WorkerLifecycle,
      ],
      exports: [DeliveryWorker, EndpointGates],
    };
  }
}
