import { execFileSync } from 'node:child_process';

/** The attribute letters lsattr shows for a directory ('' where lsattr cannot tell). */
export function directoryAttributes(dir: string): string {
  try {
    return execFileSync('lsattr', ['-d', dir], { encoding: 'utf8' }).split(' ')[0] ?? '';
  } catch {
    return '';
  }
}

/** Whether the directory is on an ext2/3/4 filesystem (which `stat -f` names "ext2/ext3"), where chattr +T applies. */
export function onExtFilesystem(dir: string): boolean {
  try {
    return execFileSync('stat', ['-f', '-c', '%T', dir], { encoding: 'utf8' }).trim().startsWith('ext');
  } catch {
    return false;
  }
}
