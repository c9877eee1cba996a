import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_*`. prom-client's default (10
 * ms) wakes an idle process a hundred times a second for it; a stalled loop delays every sample, so a
 * tenth of that still sees one, at a tenth of the cost.
 */
const EVENT_LOOP_SAMPLE_MS = 1000;

/**
 * A registry per service rather than prom-client's global one, so that tests building several apps in
 * one process, and libraries adding their own metrics, never collide on a metric name.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}
