/**
 * CPU of each thread of a process from /proc/<pid>/task/<tid>/stat (utime + stime), grouped by
 * what the thread does. The embedded engine names its threads (MergeMutate runs merges, ThreadPool
 * runs query pipelines); svc names its writer's encoder thread and the bus's write and sync threads; Node leaves every other thread
 * "node": the main thread (its id is the process id), V8's helpers (concurrent marking, compiling)
 * and libuv's pool, where chDB runs each insert and query the main thread issued asynchronously.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SEC = 100; // USER_HZ on Linux

export type ThreadTicks = Map<number, { name: string; ticks: number }>;

export function readThreadTicks(pid: number): ThreadTicks {
  const threads: ThreadTicks = new Map();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The name sits in parentheses and may hold spaces; the fields after it are space-separated.
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
      threads.set(Number(tid), { name: stat.slice(open + 1, close), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads;
}

/** The groups the breakdown reports, in print order. */
export const THREAD_GROUPS = [
  'main thread',
  'writer encoder thread',
  'bus I/O threads',
  'libuv pool + V8 helpers',
  'engine merges',
  'engine query pool',
  'engine background',
  'V8 profiler (bench only)',
] as const;
export type ThreadGroup = (typeof THREAD_GROUPS)[number];

function groupOf(pid: number, tid: number, name: string): ThreadGroup {
  if (tid === pid) return 'main thread';
  // The --cpu-prof sampler's thread: the bench's cost, not svc's.
  if (name.startsWith('v8:Prof')) return 'V8 profiler (bench only)';
  if (name === 'svc-encoder') return 'writer encoder thread';
  if (name === 'svc-bus-io') return 'bus I/O threads';
  if (name === 'node') return 'libuv pool + V8 helpers';
  if (name === 'MergeMutate') return 'engine merges';
  if (name === 'ThreadPool' || name.startsWith('QueryPipeline')) return 'engine query pool';
  return 'engine background';
}

/** The whole process's CPU ticks, ended threads included (/proc/<pid>/stat). */
function readProcessTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export interface ThreadCpuSampler {
  /** CPU seconds per group since the sampler started; threads that ended in between under 'ended threads'. */
  stop(): Map<ThreadGroup | 'ended threads', number>;
  /** After stop(): CPU seconds of the engine's background threads by thread name. */
  readonly backgroundByName: Map<string, number>;
}

/**
 * Reads every thread's ticks now and every `intervalMs`, so a pool thread that ends between two
 * readings loses at most one interval of its CPU; what ended threads used in all is the process's
 * total less the threads' sum.
 */
export function startThreadCpuSampler(pid: number, intervalMs = 500): ThreadCpuSampler {
  const first = readThreadTicks(pid);
  const processFirst = readProcessTicks(pid);
  const last = new Map(first);
  const sample = () => {
    for (const [tid, thread] of readThreadTicks(pid)) last.set(tid, thread);
  };
  const timer = setInterval(sample, intervalMs);
  const backgroundByName = new Map<string, number>();
  return {
    backgroundByName,
    stop() {
      clearInterval(timer);
      sample();
      const processSecs = (readProcessTicks(pid) - processFirst) / TICKS_PER_SEC;
      const secs = new Map<ThreadGroup | 'ended threads', number>(THREAD_GROUPS.map((group) => [group, 0]));
      let threadsSecs = 0;
      for (const [tid, { name, ticks }] of last) {
        const group = groupOf(pid, tid, name);
        const delta = Math.max(0, ticks - (first.get(tid)?.ticks ?? 0)) / TICKS_PER_SEC;
        threadsSecs += delta;
        secs.set(group, (secs.get(group) ?? 0) + delta);
        if (group === 'engine background') backgroundByName.set(name, (backgroundByName.get(name) ?? 0) + delta);
        if (group === 'libuv pool + V8 helpers' && process.env.SVC_BENCH_THREAD_DETAIL === '1')
          console.log(`  node thread ${tid} (${tid - pid} after the main thread): ${delta.toFixed(2)} s`);
      }
      secs.set('ended threads', Math.max(0, processSecs - threadsSecs));
      return secs;
    },
  };
}

/** Nanoseconds thread `tid` of this process has run (its schedstat, finer than clock ticks). */
export function ownThreadRunNs(tid: number): number {
  return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
}

/** The id of this process's thread named `name` (what top -H shows). */
export function ownThreadId(name: string): number {
  for (const tid of readdirSync('/proc/self/task')) {
    if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === name) return Number(tid);
  }
  throw new Error(`no ${name} thread`);
}
