import 'reflect-metadata';

import { runService } from '@cms/service-kit';

void runService(async () => (await import('./segments.service')).SEGMENTS_SERVICE, 'segments');
