import 'reflect-metadata';

import { runService } from '@cms/service-kit';

void runService(
  async () => (await import('./webhook-dispatch.service')).WEBHOOK_DISPATCH_SERVICE,
  'webhook-dispatch',
);
