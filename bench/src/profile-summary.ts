import { summarizeProfile } from './support/cpu-profile.summary';

/**
 * `node -r @swc-node/register bench/src/profile-summary.ts <file.cpuprofile>… [--top N]`: where a
 * profiled process spent its CPU, by area (package, app, library, GC) and by function, self time.
 */
function main(argv: string[]): void {
  const at = argv.indexOf('--top');
  const top = at === -1 ? 20 : Number(argv[at + 1]);
  // Without --top, `at + 1` is 0: the first file is not its value.
  const files = argv.filter((_, index) => at === -1 || (index !== at && index !== at + 1));
  for (const file of files) {
    const summary = summarizeProfile(file, top);
    process.stdout.write(`\n${file}: ${summary.busyPctOfCore}% of a core over ${summary.seconds} s\n`);
    for (const { area, pct } of summary.byArea)
      process.stdout.write(`  ${String(pct).padStart(5)}%  ${area}\n`);
    process.stdout.write('  --\n');
    for (const { fn, pct } of summary.byFunction)
      process.stdout.write(`  ${String(pct).padStart(5)}%  ${fn}\n`);
    process.stdout.write('  -- socket writes, by caller\n');
    for (const { area, pct } of summary.socketWritesByCaller)
      process.stdout.write(`  ${String(pct).padStart(5)}%  ${area}\n`);
  }
}

main(process.argv.slice(2));
