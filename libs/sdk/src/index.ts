export * from './client';
export * from './webhooks';
export type { components, operations, paths, webhooks } from './schema';
