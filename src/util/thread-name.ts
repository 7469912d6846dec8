import { writeFileSync } from 'node:fs';

/**
 * Names the calling thread as `top -H`, `ps -L` and /proc show it (Linux: at most 15 bytes). Node
 * names every thread of the process "node"; a named worker lets an operator, and the CPU benchmark,
 * tell its CPU apart from the main thread's and the engine's. A synchronous write runs on the
 * calling thread, so /proc/thread-self is this thread. Elsewhere than Linux it does nothing.
 */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or /proc not mounted: the name is a convenience only
  }
}
