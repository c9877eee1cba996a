import 'reflect-metadata';

import { runService } from '@cms/service-kit';

void runService(async () => (await import('./broadcasts.service')).BROADCASTS_SERVICE, 'broadcasts');
