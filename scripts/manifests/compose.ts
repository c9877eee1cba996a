import {
  memoryLimitOf,
  upstreamUrlVariable,
  type SecretKey,
  type ServiceEntry,
} from '../../libs/config/src/services';
import { comment, GENERATED } from './text';

/**
 * How compose gives each secret to the services that read it: SECRETS_KEY is in the environment every
 * app shares; the others are set on each service that reads them.
 */
const SECRET_LINES: Record<SecretKey, string | undefined> = {
  SECRETS_KEY: undefined,
  ADMIN_TOKEN: `      # Replace for any real use: the operator API's bearer token.
      ADMIN_TOKEN: local-compose-admin-token-change-me`,
};

/** `docker-compose.yml`: the stack, the topics Job and every service of the catalog. */
export function composeFile(services: readonly ServiceEntry[]): string {
  const portOf = (name: string) => services.find((candidate) => candidate.name === name)!.httpPort;
  const addresses = services.map((service) => `${service.name} :${service.httpPort}`).join(', ');
  const blocks = services.map((service) => {
    const environment = [
      `      HTTP_PORT: '${service.httpPort}'`,
      `      DATABASE_SCHEMA: ${service.schema}`,
      ...(service.upstreams ?? []).map(
        (upstream) => `      ${upstreamUrlVariable(upstream)}: http://${upstream}:${portOf(upstream)}`,
      ),
      ...service.secrets.flatMap((key) => SECRET_LINES[key] ?? []),
      // The container's limit, as deploy/k8s hands it down: the image keeps the heap within it.
      `      MEMORY_LIMIT_MIB: '${memoryLimitOf(service)}'`,
    ];
    return `
  ${service.name}:
    build:
      context: .
      args:
        APP: ${service.name}
    environment:
      <<: *app-env
${environment.join('\n')}
    mem_limit: ${memoryLimitOf(service)}m
    ports:
      - '${service.httpPort}:${service.httpPort}'
    depends_on: *app-depends
    restart: unless-stopped
`;
  });
  return `${GENERATED}
# Full stack for machines with a Docker engine: \`docker compose up --build\`.
# Without Docker, use deploy/local/stack.sh (same Kafka version, native processes on 127.0.0.1).
#
${comment(`From the host: Kafka on localhost:29092, PostgreSQL on localhost:5432 (postgres/postgres, db cms), Redis on localhost:6379, ${addresses}.`)}

x-app-env: &app-env
  NODE_ENV: production
  KAFKA_BROKERS: kafka:9092
  DATABASE_URL: postgres://postgres:postgres@postgres:5432/cms
  REDIS_URL: redis://redis:6379
  # Seals signing secrets and credentials at rest (base64 of 32 bytes); replace for any real use.
  SECRETS_KEY: Y29tcG9zZS1sb2NhbC1zZWNyZXRzLWtleS0zMmJ5dGU=

x-app-depends: &app-depends
  kafka:
    condition: service_healthy
  postgres:
    condition: service_healthy
  redis:
    condition: service_healthy
  ops-init:
    condition: service_completed_successfully

services:
  kafka:
    # Keep in step with DEFAULT_KAFKA_VERSION in deploy/local/stack.sh.
    image: apache/kafka:4.3.1
    hostname: kafka
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093
      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093,HOST://:29092
      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092,HOST://localhost:29092
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,HOST:PLAINTEXT
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_INTER_BROKER_LISTENER_NAME: PLAINTEXT
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false'
      KAFKA_NUM_PARTITIONS: 1
      KAFKA_DEFAULT_REPLICATION_FACTOR: 1
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: 1
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: 1
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: 1
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: 0
      KAFKA_LOG_DIRS: /var/lib/kafka/data
      KAFKA_HEAP_OPTS: -Xms256m -Xmx768m
    ports:
      - '127.0.0.1:29092:29092'
    volumes:
      - kafka-data:/var/lib/kafka/data
    healthcheck:
      test:
        [
          'CMD-SHELL',
          '/opt/kafka/bin/kafka-topics.sh --bootstrap-server localhost:9092 --list >/dev/null 2>&1',
        ]
      interval: 5s
      timeout: 20s
      retries: 18
      start_period: 10s

  postgres:
    image: postgres:16
    environment:
      POSTGRES_USER: postgres
      POSTGRES_PASSWORD: postgres
      POSTGRES_DB: cms
    ports:
      - '127.0.0.1:5432:5432'
    volumes:
      - pg-data:/var/lib/postgresql/data
    healthcheck:
      test: ['CMD-SHELL', 'pg_isready -U postgres -d cms']
      interval: 2s
      timeout: 5s
      retries: 30

  redis:
    image: redis:7
    command: ['redis-server', '--save', '', '--appendonly', 'no']
    ports:
      - '127.0.0.1:6379:6379'
    healthcheck:
      test: ['CMD', 'redis-cli', 'ping']
      interval: 2s
      timeout: 3s
      retries: 30

  # One-shot: create the Kafka topics. (Each service runs its own migrations at start, one replica at a
  # time under a Postgres advisory lock.)
  ops-init:
    build:
      context: .
      args:
        APP: ops
    environment:
      <<: *app-env
    command: ['topics', 'create']
    restart: 'no'
    depends_on:
      kafka:
        condition: service_healthy
      postgres:
        condition: service_healthy
${blocks.join('')}
volumes:
  kafka-data:
  pg-data:
`;
}
