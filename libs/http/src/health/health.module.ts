import { type DynamicModule, Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';

import { HealthController } from './health.controller';
import { HEALTH_MODULE_OPTIONS, type HealthModuleOptions } from './health.options';
import { installHttpMetrics } from './http-metrics.hook';
import { createMetricsRegistry } from './metrics.registry';
import { ReadinessRegistry } from './readiness.registry';

/**
 * `/health`, `/ready` and `/metrics` for one service. Global, so that any module can inject the
 * `ReadinessRegistry` to add its checks and the prom-client `Registry` to add its metrics.
 */
@Module({})
export class HealthModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(Registry) private readonly registry: Registry,
  ) {}

  static forRoot(options: HealthModuleOptions): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      controllers: [HealthController],
      providers: [
        { provide: HEALTH_MODULE_OPTIONS, useValue: options },
        { provide: Registry, useFactory: () => createMetricsRegistry(options.service) },
        ReadinessRegistry,
      ],
      exports: [Registry, ReadinessRegistry],
    };
  }

  // Module init runs after the routes are declared but before Fastify is ready, when hooks can still be added.
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (adapter?.getType() === 'fastify') {
      installHttpMetrics(adapter.getInstance<FastifyInstance>(), this.registry);
    }
  }
}
