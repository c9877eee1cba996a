import 'reflect-metadata';

import { runService } from '@cms/service-kit';

void runService(async () => (await import('./gateway.service')).GATEWAY_SERVICE, 'gateway');
