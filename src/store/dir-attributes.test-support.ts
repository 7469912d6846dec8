import { execFileSync } from 'node:child_process';

/** The attribute letters lsattr shows for a directory ('' where lsattr cannot tell). */
export function directoryAttributes(dir: string): string {
  try {
    return execFileSync('lsattr', ['-d', dir], { encoding: 'utf8' }).split(' ')[0] ?? '';
  } catch {
    return '';
  }
}
