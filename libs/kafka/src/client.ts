import { Kafka, logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from 'pino';

import { fixKafkajsFetchWait } from './fetch-wait-fix';
import { fixKafkajsRequestQueue } from './request-queue-fix';

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
}

function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, ...extra } = log;
      const line = { ...extra, kafkajs: namespace };
      switch (level) {
        case logLevel.ERROR:
          logger.error(line, message);
          break;
        case logLevel.WARN:
          logger.warn(line, message);
          break;
        case logLevel.INFO:
          logger.info(line, message);
          break;
        case logLevel.DEBUG:
        case logLevel.NOTHING:
          logger.debug(line, message);
          break;
        default:
          logger.debug(line, message);
      }
    };
}

export function createKafka(config: KafkaConfig, logger?: Logger): Kafka {
  fixKafkajsRequestQueue();
  fixKafkajsFetchWait();
  return new Kafka({
    clientId: config.clientId,
    brokers: config.brokers,
    connectionTimeout: 3000,
    requestTimeout: 30000,
    // Transient broker trouble (a restart) must not kill a service: retry for about a minute.
    retry: { initialRetryTime: 200, maxRetryTime: 5000, retries: 20 },
    logLevel: logLevel.WARN,
    ...(logger ? { logCreator: pinoLogCreator(logger) } : {}),
  });
}

export function parseBrokers(value: string | undefined): string[] {
  const brokers = (value ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker.length > 0);
  if (brokers.length === 0) throw new Error('KAFKA_BROKERS is empty: give host:port[,host:port]');
  return brokers;
}
