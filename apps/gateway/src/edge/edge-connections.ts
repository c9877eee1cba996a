import { ReadinessRegistry } from '@cms/http';
import { OutcomeWaiter } from '@cms/kafka';
import { KAFKA, LOGGER } from '@cms/service-kit';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { RATE_LIMIT_REDIS_OPTIONS } from '../rate-limit/rate-limit.service';

export const REDIS = Symbol('REDIS');

/**
 * What serving HTTP needs beside the kit's connections: the outcomes the write path waits for, Redis
 * for the rate limits, and the id sequences. A rebuild (`main.js rebuild`) mints no id and waits for
 * no answer, so it opens none of them.
 */
export const EDGE_CONNECTIONS: Provider[] = [
  {
    provide: OutcomeWaiter,
    inject: [KAFKA, GATEWAY_CONFIG, LOGGER],
    useFactory: async (kafka: Kafka, config: GatewayConfig, logger: Logger) => {
      const waiter = new OutcomeWaiter({
        kafka,
        logger,
        topic: config.topics.outcomes,
        groupPrefix: 'gateway-outcomes',
        fetchWaitMs: config.kafkaFetchWaitMs,
      });
      await waiter.start();
      return waiter;
    },
  },
  {
    provide: REDIS,
    inject: [GATEWAY_CONFIG],
    useFactory: (config: GatewayConfig) => new Redis(config.redisUrl, RATE_LIMIT_REDIS_OPTIONS),
  },
  {
    provide: IdAllocatorRepository,
    inject: [DataSource],
    useFactory: (dataSource: DataSource) => new IdAllocatorRepository(dataSource),
  },
];

/** Checks the edge's connections for readiness and closes them on shutdown, before the kit's. */
@Injectable()
export class EdgeConnections implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(OutcomeWaiter) private readonly waiter: OutcomeWaiter,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    const { waiter, redis } = this;
    this.readiness.register('outcomes', () => waiter.isReady);
    this.readiness.register('redis', async () => (await redis.ping()) === 'PONG');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.waiter.stop();
    this.redis.disconnect();
  }
}
