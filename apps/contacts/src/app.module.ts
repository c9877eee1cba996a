import { HealthModule } from '@cms/http';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';

import type { ContactsConfig } from './config';
import { ContactsModule } from './contacts/contacts.module';
import { EventsModule } from './events/events.module';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { TagsModule } from './tags/tags.module';

@Module({})
export class AppModule {
  static forRoot(config: ContactsConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config, logger),
        HealthModule.forRoot({ service: 'contacts' }),
        ContactsModule,
        TagsModule,
        EventsModule,
      ],
    };
  }
}
