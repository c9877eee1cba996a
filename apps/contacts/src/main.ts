import { rebuildProcesses, startShares, type Shares } from './rebuild-shares';

/**
 * The other processes of `main.js rebuild`, started before this one loads the service so that they
 * load on the other cores meanwhile (loading is a good part of a short rebuild).
 */
function earlyShares(command: string | undefined): Shares | undefined {
  if (command !== 'rebuild' || process.env.REBUILD_SHARE !== undefined) return undefined;
  const of = rebuildProcesses(process.env.REBUILD_PROCESSES);
  return of !== undefined && of > 1 ? startShares(of) : undefined;
}

async function main(command: string | undefined): Promise<void> {
  if (command === 'migrate') {
    // Ahead of earlyShares and run.ts: a migration starts no rebuild processes and none of the service.
    const { migrateContacts } = await import('./migrate');
    process.exit(await migrateContacts());
  }
  const shares = earlyShares(command);
  const { runContacts } = await import('./run');
  await runContacts(command, shares);
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'contacts', msg: 'contacts failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
