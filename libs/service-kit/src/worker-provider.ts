import { OutboxRelay } from '@cms/kafka';
import type { FactoryProvider, Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { LOGGER } from './infrastructure.module';
import type { KitConfig } from './service-definition';
import type { WorkerSettings } from './timer-table.worker';

/**
 * The provider of a worker of the service's job tables: `make` is given the service's configuration
 * and what every such worker shares (the data source, the commit signals of the service's schema, a
 * logger naming `component`, and the outbox relay to kick once it wrote records).
 */
export function workerProvider<C extends KitConfig, W>(
  token: Type<W>,
  configToken: symbol,
  component: string,
  make: (config: C, settings: WorkerSettings) => W,
): FactoryProvider<W> {
  return {
    provide: token,
    inject: [configToken, LOGGER, DataSource, OutboxRelay],
    useFactory: (config: C, logger: Logger, dataSource: DataSource, relay: OutboxRelay) =>
      make(config, {
        dataSource,
        wakeOn: { databaseUrl: config.databaseUrl, schema: config.databaseSchema },
        logger: logger.child({ component }),
        onOutboxWritten: () => relay.kick(),
      }),
  };
}
