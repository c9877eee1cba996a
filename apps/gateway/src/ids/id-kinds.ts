/** Resources whose integer ids the gateway mints before the request enters the log. */
export const ID_KINDS = [
  'workspace',
  'api_key',
  'contact',
  'event',
  'tag',
  'integration',
  'audience',
  'notification',
  'channel',
  'bot',
  'workflow',
  'template',
  'import_job',
] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** Ids handed out per database round trip (shared with the services a request hands reserved blocks to). */
export { ID_BLOCK_SIZE } from '@cms/contracts';
