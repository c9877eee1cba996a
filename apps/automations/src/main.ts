import 'reflect-metadata';

import { runService } from '@cms/service-kit';

void runService(async () => (await import('./automations.service')).AUTOMATIONS_SERVICE, 'automations');
