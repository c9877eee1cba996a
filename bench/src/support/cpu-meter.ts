import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time per process group over one phase, in % of one core (200 % = both cores of this machine). */
export interface CpuUsage {
  seconds: number;
  /** Busy share of the whole machine, 0–100 % of all cores. */
  machineBusyPct: number;
  /** By group: gateway, contacts, webhook-dispatch, kafka, postgres, redis, load (this process), other. */
  byGroupPctOfCore: Record<string, number>;
}

/** Where the meter's running totals stood at one moment. */
export interface Snapshot {
  at: number;
  /** CPU ticks used per group since the meter started. */
  totals: Map<string, number>;
  machine: { busy: number; total: number };
}

function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Where the machine's CPU went during a phase, read from /proc: what limits a figure on a 2-core machine
 * is usually visible here first (a process pinned near 100 % of a core, or the machine near 100 %).
 * Processes are grouped by the pids the bench started (and their children) and by well-known names;
 * everything else (other users of the machine) is "other". /proc is read twice a second and the
 * totals kept per group, so processes that come and go within a phase (a rebuild, the Postgres
 * backends of its connections) are counted too, less at most their last half second.
 */
export class CpuMeter {
  private readonly hz = clockTicksPerSecond();
  private readonly cmdlines = new Map<number, string>();
  /** Ticks of each live process at the last reading. */
  private last = new Map<number, number>();
  private readonly totals = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly known: () => Map<number, string>) {
    this.last = new Map([...this.readProcesses()].map(([pid, process]) => [pid, process.ticks]));
    this.timer = setInterval(() => this.sample(), 500);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  snapshot(): Snapshot {
    this.sample();
    const cpu = (readText('/proc/stat') ?? '').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are the idle part.
    const total = cpu.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    return { at: performance.now(), totals: new Map(this.totals), machine: { busy: total - idle, total } };
  }

  /** Every group's CPU between two snapshots, in % of one core to 0.01 (none left out for being small). */
  pctOfCore(start: Snapshot, end: Snapshot): Record<string, number> {
    const seconds = (end.at - start.at) / 1000;
    return Object.fromEntries(
      [...end.totals].map(([group, ticks]): [string, number] => {
        const used = (ticks - (start.totals.get(group) ?? 0)) / this.hz;
        return [group, Math.round((used / seconds) * 10000) / 100];
      }),
    );
  }

  between(start: Snapshot, end: Snapshot): CpuUsage {
    const seconds = (end.at - start.at) / 1000;
    const byGroupPctOfCore = Object.fromEntries(
      [...end.totals]
        .map(([group, ticks]): [string, number] => {
          const used = (ticks - (start.totals.get(group) ?? 0)) / this.hz;
          return [group, Math.round((used / seconds) * 1000) / 10];
        })
        .filter(([, pct]) => pct >= 0.5)
        .sort((a, b) => b[1] - a[1]),
    );
    const busy = end.machine.busy - start.machine.busy;
    const total = end.machine.total - start.machine.total;
    return {
      seconds: Math.round(seconds * 10) / 10,
      machineBusyPct: total > 0 ? Math.round((busy / total) * 1000) / 10 : 0,
      byGroupPctOfCore,
    };
  }

  private sample(): void {
    const named = this.known();
    const processes = this.readProcesses();
    // A process started by one the bench knows (the rebuild ops starts, a service's workers) counts as it.
    const groupOf = (pid: number): string => {
      for (let at: number | undefined = pid, depth = 0; at !== undefined && at > 1 && depth < 6; depth += 1) {
        const name = named.get(at);
        if (name !== undefined) return name;
        at = processes.get(at)?.parent;
      }
      return this.classify(pid, processes.get(pid)!.comm);
    };
    const next = new Map<number, number>();
    for (const [pid, process] of processes) {
      // A pid not seen before started since the last reading: all its ticks are new.
      const used = Math.max(0, process.ticks - (this.last.get(pid) ?? 0));
      if (used > 0) {
        const group = groupOf(pid);
        this.totals.set(group, (this.totals.get(group) ?? 0) + used);
      }
      next.set(pid, process.ticks);
    }
    this.last = next;
  }

  private readProcesses(): Map<number, { comm: string; parent: number; ticks: number }> {
    const processes = new Map<number, { comm: string; parent: number; ticks: number }>();
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      const stat = readText(`/proc/${pid}/stat`);
      if (!stat) continue;
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // proc(5), counted from the state field (field 3): ppid is field 4, utime and stime 14 and 15.
      processes.set(pid, { comm, parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    }
    return processes;
  }

  private classify(pid: number, comm: string): string {
    if (comm === 'postgres') return 'postgres';
    if (comm === 'redis-server') return 'redis';
    let cmdline = this.cmdlines.get(pid);
    if (cmdline === undefined) {
      cmdline = (readText(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ');
      this.cmdlines.set(pid, cmdline);
    }
    if (cmdline.includes('kafka.Kafka ')) return 'kafka';
    return 'other';
  }
}

/** `gateway 96%, contacts 71%, postgres 18%` */
export function formatCpu(usage: CpuUsage | undefined): string {
  if (!usage) return '';
  const groups = Object.entries(usage.byGroupPctOfCore)
    .slice(0, 6)
    .map(([group, pct]) => `${group} ${Math.round(pct)}%`)
    .join(', ');
  return `machine ${Math.round(usage.machineBusyPct)}% busy; ${groups}`;
}
