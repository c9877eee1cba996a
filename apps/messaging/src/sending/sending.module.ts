import { AddressPolicy, guardedConnector } from '@cms/http';
import { OutboxRelay } from '@cms/kafka';
import { LOGGER, workerProvider } from '@cms/service-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { Agent } from 'undici';
import { DataSource } from 'typeorm';

import { ChannelCredentials } from '../channels/channel-credentials';
import { ChannelsModule } from '../channels/channels.module';
import { MESSAGING_CONFIG, type MessagingConfig } from '../config';
import { parseProviderBaseUrls } from '../providers/provider-base-urls';
import { ProviderAdapters } from '../providers/provider-adapters';
import { DEFAULT_PROVIDER_TIMEOUT_MS } from '../providers/provider-http';
import { publicEndpointCheck } from './public-endpoint';
import { SendQueueRepository } from './send-queue.repository';
import { SendWorker } from './send.worker';
import { TimerWorker } from './timer.worker';

/** Sending: the send and timer workers (started by the kit in the live service only) and the providers. */
@Module({
  imports: [ChannelsModule],
  providers: [
    {
      provide: ProviderAdapters,
      inject: [MESSAGING_CONFIG],
      useFactory: (config: MessagingConfig) =>
        new ProviderAdapters({
          baseUrls: parseProviderBaseUrls(config.providerBaseUrls),
          assertPublicEndpoint: publicEndpointCheck(config.allowNetworks),
          pushDispatcher: new Agent({
            connect: guardedConnector({
              policy: new AddressPolicy(config.allowNetworks),
              connectTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
            }),
          }),
        }),
    },
    {
      provide: SendWorker,
      inject: [MESSAGING_CONFIG, LOGGER, DataSource, ProviderAdapters, ChannelCredentials, OutboxRelay],
      useFactory: (
        config: MessagingConfig,
        logger: Logger,
        dataSource: DataSource,
        adapters: ProviderAdapters,
        credentials: ChannelCredentials,
        relay: OutboxRelay,
      ) =>
        new SendWorker({
          queue: new SendQueueRepository(dataSource, config.topics.requests),
          adapters,
          credentials,
          ...config.sendWorker,
          wakeOn: { databaseUrl: config.databaseUrl, schema: config.databaseSchema },
          providerTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
          logger: logger.child({ component: 'send-worker' }),
          linkTracking: { baseUrl: config.publicBaseUrl, secretsKey: config.secretsKey },
          onOutboxWritten: () => relay.kick(),
        }),
    },
    workerProvider(
      TimerWorker,
      MESSAGING_CONFIG,
      'timer-worker',
      (config: MessagingConfig, settings) =>
        new TimerWorker({
          ...settings,
          requestsTopic: config.topics.requests,
          batchSize: config.sendWorker.batchSize,
          pollMs: config.sendWorker.pollMs,
        }),
    ),
  ],
  exports: [ProviderAdapters, SendWorker, TimerWorker],
})
export class SendingModule {}
