export interface HealthModuleOptions {
  /** Put on every metric as the `service` label and into the `/health` answer. */
  service: string;
  /** A check still pending after this long counts as failing, so a hung dependency cannot hang the probe. */
  readinessTimeoutMs?: number;
}

export const HEALTH_MODULE_OPTIONS = Symbol('HEALTH_MODULE_OPTIONS');

/** The probe paths, which stay outside the API's global prefix (see `bootstrapHttp`). */
export const HEALTH_ROUTES = ['health', 'ready', 'metrics'] as const;
