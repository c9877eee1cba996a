import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Registry } from 'prom-client';

import { HEALTH_MODULE_OPTIONS, type HealthModuleOptions } from './health.options';
import { ReadinessRegistry } from './readiness.registry';

const DEFAULT_READINESS_TIMEOUT_MS = 2000;

@Controller()
export class HealthController {
  constructor(
    @Inject(HEALTH_MODULE_OPTIONS) private readonly options: HealthModuleOptions,
    private readonly readiness: ReadinessRegistry,
    private readonly registry: Registry,
  ) {}

  /** Liveness: answering at all is the signal, so nothing is checked. */
  @Get('health')
  health(): { status: 'ok'; service: string } {
    return { status: 'ok', service: this.options.service };
  }

  // The reply is written by hand: Nest would overwrite a status set on a passthrough reply.
  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.readiness.evaluate(
      this.options.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS,
    );
    await reply.code(report.ready ? 200 : 503).send({
      status: report.ready ? 'ready' : 'not_ready',
      service: this.options.service,
      checks: report.checks,
      failing: report.failing,
    });
  }

  @Get('metrics')
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const body = await this.registry.metrics();
    await reply.code(200).header('Content-Type', this.registry.contentType).send(body);
  }
}
