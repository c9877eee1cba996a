import 'reflect-metadata';

// First: the other processes of a rebuild start before this one loads the service.
import { shares } from './early-shares';

import { runService } from '@cms/service-kit';

void runService(
  async () => (await import('./contacts.service')).CONTACTS_SERVICE,
  'contacts',
  process.argv[2],
  shares,
);
