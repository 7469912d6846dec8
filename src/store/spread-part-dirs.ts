/**
 * Part directories spread over the filesystem's block groups (ext2/3/4).
 *
 * The engine writes every insert and every merge as a new part directory of a dozen or more small
 * files, and deletes merged-away parts soon after. ext4 puts a new file's inode in the block group of
 * its directory, taking the first free inode from the group's start; on a filesystem without a
 * journal it also passes over every inode freed in the last seconds to minutes, one lookup each. With
 * all of a table's part directories in one group, each new file then scans the thousands of inodes
 * the engine has just freed there: at 10k spans + 10k logs a second that scan took a fifth to a half
 * of the engine's CPU on such a machine. A directory carrying the "top of a directory hierarchy" attribute
 * (`chattr +T`) has each new subdirectory placed in a block group chosen for free room, so the parts
 * of a table spread over many groups and each group keeps few freed inodes to pass over. The
 * attribute changes placement only, never the files; where the filesystem has no such attribute, or
 * the machine no `chattr`, the directories are left as they are.
 */

import { execFile } from 'node:child_process';

/** chattr returns within milliseconds; a hung one must not hold the start-up. */
const CHATTR_TIMEOUT_MS = 10_000;

/** Marks each directory as a top of a directory hierarchy; resolves whether chattr did so (never rejects). */
export function markTopDirectories(dirs: readonly string[]): Promise<boolean> {
  if (dirs.length === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    execFile('chattr', ['+T', '--', ...dirs], { timeout: CHATTR_TIMEOUT_MS }, (error) => resolve(error === null));
  });
}
