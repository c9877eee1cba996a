import type { RequestSource } from '../load/closed-loop.load';
import type { Tenant } from '../support/bench-system';

/** Distinct phone numbers per workspace: most events create a contact, some find one already there. */
const PHONES_PER_WORKSPACE = 2000;

/**
 * `POST /api/v1/events` as a business's backend sends it, spread round-robin over every tenant's key so
 * that no workspace nears its events limit (1,200 a minute) and the rate limiter is not what is measured.
 */
export function eventRequestSource(tenants: Tenant[]): RequestSource {
  const authorizations = tenants.map((tenant) => `Bearer ${tenant.key}`);
  let sent = 0;
  return {
    path: '/api/v1/events',
    next() {
      const index = sent++;
      const phone = `+1415201${String(Math.floor(Math.random() * PHONES_PER_WORKSPACE)).padStart(4, '0')}`;
      return {
        headers: {
          authorization: authorizations[index % authorizations.length]!,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'order.paid', contact: { phone }, data: { order: index, total: 42.5 } }),
      };
    },
  };
}
