import { createServer, type Server } from 'node:net';

/**
 * TEST_PORT_RANGE ("first-last"): the ports this process hands out, in turn, each one free when handed
 * out. scripts/test.sh runs two jest runs side by side and gives each a range of its own below the
 * kernel's ephemeral ports: a port one run chose for a service cannot be taken by the other run's
 * services, nor by an outgoing connection, before its own service binds it (with ports the kernel
 * picks, the other run's service could, and a suite then took that service's /ready for its own).
 * Without it, the kernel picks a port free at the moment of asking.
 */
function portRange(): { first: number; last: number } | undefined {
  const match = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORT_RANGE ?? '');
  if (!match) return undefined;
  const [first, last] = [Number(match[1]), Number(match[2])];
  return first > 0 && first <= last && last < 65536 ? { first, last } : undefined;
}

/** The last port handed out from the range; a test file starts at a random place in it. */
let cursor: number | undefined;

function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function nextInRange({ first, last }: { first: number; last: number }): Promise<number> {
  const size = last - first + 1;
  cursor ??= first + Math.floor(Math.random() * size) - 1;
  for (let tried = 0; tried < size; tried += 1) {
    cursor = cursor >= last || cursor < first ? first : cursor + 1;
    const server = await listenOn(cursor);
    if (server) {
      await close(server);
      return cursor;
    }
  }
  throw new Error(`no free port in TEST_PORT_RANGE ${first}-${last}`);
}

/** A TCP port on 127.0.0.1 that nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const range = portRange();
  if (range) return nextInRange(range);
  const server = await listenOn(0);
  if (!server) throw new Error('could not listen on a port of the kernel’s choosing');
  const port = portOf(server);
  await close(server);
  return port;
}

/** `count` TCP ports on 127.0.0.1 that nothing listens on, all different from each other. */
export async function freePorts(count: number): Promise<number[]> {
  const range = portRange();
  if (range) {
    // Handed out in turn from the range: different from each other by construction.
    const ports: number[] = [];
    for (let made = 0; made < count; made += 1) ports.push(await nextInRange(range));
    return ports;
  }
  // All held at once, so the ports handed out differ from each other.
  const servers = await Promise.all(Array.from({ length: count }, () => listenOn(0)));
  if (servers.some((server) => server === undefined)) throw new Error('could not listen on a port');
  const ports = servers.map((server) => portOf(server!));
  await Promise.all(servers.map((server) => close(server!)));
  return ports;
}
