import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  seconds: number;
  /** CPU the process used while profiled, in % of one core. */
  busyPctOfCore: number;
  /** Share of busy time by where the code lives (package, app, library, GC, node internals). */
  byArea: Array<{ area: string; pct: number }>;
  /** Share of busy time by function (self time). */
  byFunction: Array<{ fn: string; pct: number }>;
  /**
   * Share of busy time in socket writes (each a system call), by the code that wrote: on this kind of
   * machine a round trip's write costs far more than building the request.
   */
  socketWritesByCaller: Array<{ area: string; pct: number }>;
}

const SOCKET_WRITES = new Set([
  'writev',
  'writeBuffer',
  'writeUtf8String',
  'writeString',
  'writeLatin1String',
]);

const IDLE = new Set(['(idle)', '(root)']);

/** The profiler's own work in the profiled process (the inspector session started in-process). */
function isProfilerOverhead(url: string): boolean {
  return url === 'node:inspector';
}

/** Where a frame's code lives: `typeorm`, `@cms/kafka`, `gateway`, `node:internal`, `GC`, … */
export function areaOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return '(program: V8 and native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const lib = /dist\/libs\/([^/]+)\//.exec(url);
  if (lib) return `@cms/${lib[1]}`;
  const app = /dist\/apps\/([^/]+)\//.exec(url);
  if (app) return app[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[1] ?? url.slice(5)}`;
  return url === '' ? '(native)' : url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('dist/');
  return dist !== -1 ? url.slice(dist + 5) : url;
}

/** Self time per area and per function, from the samples of a .cpuprofile. */
export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** The first caller up the stack that is a package, a library or an app (not Node's own code). */
  const callerArea = (id: number): string => {
    for (let at = parentOf.get(id); at !== undefined; at = parentOf.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      if (/node_modules\/|dist\//.test(url)) return areaOf(url, functionName);
    }
    return '(node)';
  };
  const writes = new Map<string, number>();
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (IDLE.has(functionName) || isProfilerOverhead(url)) continue;
    busy += us;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    if (SOCKET_WRITES.has(functionName)) {
      const caller = callerArea(id);
      writes.set(caller, (writes.get(caller) ?? 0) + us);
    }
    const fn = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const share = (entries: Map<string, number>): Array<[string, number]> =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => [key, Math.round((us / busy) * 1000) / 10]);
  return {
    file,
    seconds: Math.round(seconds * 10) / 10,
    busyPctOfCore: Math.round((busy / 1e6 / seconds) * 1000) / 10,
    byArea: share(areas).map(([area, pct]) => ({ area, pct })),
    byFunction: share(functions).map(([fn, pct]) => ({ fn, pct })),
    socketWritesByCaller: share(writes).map(([area, pct]) => ({ area, pct })),
  };
}
