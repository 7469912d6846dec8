import { readFileSync } from 'node:fs';

/**
 * The process's anonymous resident bytes (RssAnon of /proc/self/status): heaps and native
 * buffers, not the mapped files the kernel can drop. Undefined where /proc is not there (not
 * Linux), and then nothing is refused for memory.
 */
export function readAnonRssBytes(): number | undefined {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'latin1');
  } catch {
    return undefined;
  }
  const match = /^RssAnon:\s+(\d+) kB$/m.exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}
