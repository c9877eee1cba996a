import { earlyShares } from '@cms/service-kit/shares';

/**
 * Loaded before anything else (main.ts imports it first): `main.js rebuild` starts the other
 * processes of a rebuild here, so they load while this one does (see earlyShares).
 */
export const shares = earlyShares(process.argv[2]);
