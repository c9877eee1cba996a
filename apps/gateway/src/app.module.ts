import { HealthModule } from '@cms/http';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';

import type { GatewayConfig } from './config';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { WritePathService } from './write-path/write-path.service';
import { AdminController } from './workspaces/admin.controller';
import { AdminGuard } from './workspaces/admin.guard';
import { WorkspaceRequestsConsumer } from './workspaces/workspace-requests.consumer';

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forRoot(config, logger), HealthModule.forRoot({ service: 'gateway' })],
      controllers: [AdminController, WorkspaceRequestsConsumer],
      providers: [WritePathService, AdminGuard],
    };
  }
}
