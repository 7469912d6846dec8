/**
 * Who holds a process's anonymous resident memory, read from /proc/<pid>/smaps by the shape of
 * each mapping (no cooperation from the process needed, so it works on any build):
 * - V8 heap pages: V8 maps its heaps (every isolate's: the main thread's and each worker's) in
 *   256 KiB pages; larger objects get mappings of their own and fall under "other";
 * - the glibc main arena ([heap]): native memory malloc'd on the main thread, Buffers' bytes first;
 * - glibc thread arenas: malloc on other threads (the engine's threads, libuv's pool, workers'
 *   Buffers) comes from heaps glibc maps at 64 MiB-aligned addresses;
 * - other: the engine's own large mappings, thread stacks, V8 large objects and code.
 * The sum is the process's RssAnon (up to rounding).
 */
import { readFileSync } from 'node:fs';

export interface AnonHolders {
  v8PagesBytes: number;
  mainArenaBytes: number;
  threadArenasBytes: number;
  otherBytes: number;
}

const V8_PAGE_KIB = 256;
const ARENA_ALIGN_BYTES = 64 * 2 ** 20;
const HEADER = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/;

/** The anonymous resident bytes of `pid` by holder; undefined when the process is gone. */
export function anonHolders(pid: number): AnonHolders | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'latin1');
  } catch {
    return undefined;
  }
  const holders: AnonHolders = { v8PagesBytes: 0, mainArenaBytes: 0, threadArenasBytes: 0, otherBytes: 0 };
  let holder: keyof AnonHolders = 'otherBytes';
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (header !== null) {
      const [, from = '0', to = '0', name = ''] = header;
      const start = parseInt(from, 16);
      const sizeKiB = (parseInt(to, 16) - start) / 1024;
      if (name === '[heap]') holder = 'mainArenaBytes';
      else if (name !== '') holder = 'otherBytes';
      else if (sizeKiB === V8_PAGE_KIB) holder = 'v8PagesBytes';
      else if (start % ARENA_ALIGN_BYTES === 0 && sizeKiB <= ARENA_ALIGN_BYTES / 1024) holder = 'threadArenasBytes';
      else holder = 'otherBytes';
      continue;
    }
    if (line.startsWith('Anonymous:')) holders[holder] += Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
  }
  return holders;
}

/** One line: MiB per holder. */
export function describeAnonHolders(holders: AnonHolders): string {
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  return `V8 heap pages ${mib(holders.v8PagesBytes)}, glibc main arena ${mib(holders.mainArenaBytes)}, glibc thread arenas ${mib(holders.threadArenasBytes)}, other ${mib(holders.otherBytes)}`;
}
