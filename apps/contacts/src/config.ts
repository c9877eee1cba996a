import { EnvReader, serviceBaseConfig, type Env, type ServiceBaseConfig } from '@cms/config';

export { consumerGroup } from '@cms/config';

export interface ContactsConfig extends ServiceBaseConfig {
  service: 'contacts';
  /**
   * Owns the checkpoints and names the consumer group. A blue/green rebuild runs a second instance
   * under another name (and schema), so it reads the log from the beginning.
   */
  consumerName: string;
}

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env): ContactsConfig {
  const reader = new EnvReader(env);
  return {
    service: 'contacts',
    ...serviceBaseConfig(reader, { httpPort: 3001, schema: 'contacts' }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'contacts'),
  };
}

export const CONTACTS_CONFIG = Symbol('CONTACTS_CONFIG');
