import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry per service rather than prom-client's global one, so that tests building several apps in
 * one process, and libraries adding their own metrics, never collide on a metric name.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
