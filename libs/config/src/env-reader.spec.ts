import { ConfigError, consumerGroup, EnvReader, serviceBaseConfig } from './env-reader';

describe('EnvReader', () => {
  it('reads the settings every service shares, with defaults', () => {
    const config = serviceBaseConfig(
      new EnvReader({ DATABASE_URL: 'postgres://db/cms', KAFKA_BROKERS: ' a:1, b:2 ,' }),
      {
        httpPort: 3001,
        schema: 'contacts',
      },
    );
    expect(config).toEqual({
      httpPort: 3001,
      databaseUrl: 'postgres://db/cms',
      databaseSchema: 'contacts',
      kafkaBrokers: ['a:1', 'b:2'],
      topics: expect.objectContaining({ requests: 'cms.requests.v1' }),
      kafkaFetchWaitMs: 10_000,
    });
  });

  it('puts every topic under TOPIC_NAMESPACE', () => {
    expect(new EnvReader({ TOPIC_NAMESPACE: 'blue' }).topics().outcomes).toBe('blue.cms.outcomes.v1');
  });

  it.each([
    [{ HTTP_PORT: 'eighty' }, /HTTP_PORT must be an integer/],
    [{ HTTP_PORT: '-1' }, /HTTP_PORT must be an integer ≥ 0/],
    [{ DATABASE_SCHEMA: 'Bad-Name' }, /DATABASE_SCHEMA must match/],
    [{ TOPIC_NAMESPACE: 'UPPER' }, /TOPIC_NAMESPACE/],
    [{ DATABASE_URL: '' }, /DATABASE_URL is required/],
  ])('refuses %j, naming the variable', (override, message) => {
    const env = { DATABASE_URL: 'postgres://db/cms', KAFKA_BROKERS: 'a:1', ...override };
    expect(() => serviceBaseConfig(new EnvReader(env), { httpPort: 1, schema: 's' })).toThrow(ConfigError);
    expect(() => serviceBaseConfig(new EnvReader(env), { httpPort: 1, schema: 's' })).toThrow(message);
  });

  it('checks URLs and strips trailing slashes', () => {
    expect(new EnvReader({ U: 'http://x:1/' }).httpUrl('U', 'http://d')).toBe('http://x:1');
    expect(() => new EnvReader({ U: 'x:1' }).httpUrl('U', 'http://d')).toThrow(/U must be an http\(s\) URL/);
  });
});

describe('consumerGroup', () => {
  it('is the bare name on the real topics and namespaced otherwise', () => {
    expect(consumerGroup(new EnvReader({}).topics(), 'contacts')).toBe('contacts');
    expect(consumerGroup(new EnvReader({ TOPIC_NAMESPACE: 'blue' }).topics(), 'contacts')).toBe(
      'blue.contacts',
    );
  });
});
