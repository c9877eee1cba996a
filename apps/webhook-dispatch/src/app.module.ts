import { HealthModule } from '@cms/http';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';

import type { WebhookDispatchConfig } from './config';
import { RequestDecider } from './decisions/request-decider';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { DispatchModule, type SenderOverrides } from './dispatch/dispatch.module';
import { EndpointsModule } from './endpoints/endpoints.module';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { WebhookRequestsConsumer } from './webhook-requests.consumer';

@Module({})
export class AppModule {
  static forRoot(
    config: WebhookDispatchConfig,
    logger: Logger,
    overrides: SenderOverrides = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config, logger),
        HealthModule.forRoot({ service: 'webhook-dispatch' }),
        EndpointsModule,
        DeliveriesModule,
        // A rebuild (`main.js rebuild`) only applies the log: no delivery goes out of it.
        ...(config.rebuild ? [] : [DispatchModule.forRoot(overrides)]),
      ],
      controllers: [WebhookRequestsConsumer],
      providers: [RequestDecider],
    };
  }
}
