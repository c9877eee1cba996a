import 'reflect-metadata';

import { runService } from '@cms/service-kit';

void runService(async () => (await import('./messaging.service')).MESSAGING_SERVICE, 'messaging');
