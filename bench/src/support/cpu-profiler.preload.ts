import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/**
 * Loaded with `-r` into a service under `npm run bench -- --profile`: the first SIGWINCH starts V8's CPU
 * profiler, the next writes `<BENCH_PROFILE_DIR>/<BENCH_PROFILE_NAME>-<pid>-<n>.cpuprofile` (open it in Chrome
 * DevTools or read the bench's summary). A signal, not --cpu-prof: the services leave by re-raising
 * SIGTERM, which --cpu-prof does not survive, and only the measured phase is of interest. SIGWINCH
 * because Nest's shutdown hooks take SIGUSR2 and Node's inspector SIGUSR1.
 */
const dir = process.env.BENCH_PROFILE_DIR ?? '.';
const name = process.env.BENCH_PROFILE_NAME ?? `pid-${process.pid}`;
let session: Session | undefined;
let written = 0;

process.on('SIGWINCH', () => {
  if (session === undefined) {
    const started = new Session();
    session = started;
    started.connect();
    started.post('Profiler.enable', () => {
      started.post('Profiler.setSamplingInterval', { interval: 500 }, () => started.post('Profiler.start'));
    });
    return;
  }
  const running = session;
  session = undefined;
  running.post('Profiler.stop', (error, result) => {
    if (!error) {
      mkdirSync(dir, { recursive: true });
      written += 1;
      writeFileSync(
        join(dir, `${name}-${process.pid}-${written}.cpuprofile`),
        JSON.stringify(result.profile),
      );
    }
    running.disconnect();
  });
});
