import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { directoryAttributes, onExtFilesystem } from './dir-attributes.test-support.js';
import { markTopDirectories } from './spread-part-dirs.js';

const root = mkdtempSync(join(tmpdir(), 'svc-spread-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('markTopDirectories', () => {
  it('marks every directory given, and says so exactly when the filesystem took the attribute', async () => {
    const dirs = ['a', 'b c'].map((name) => join(root, name));
    for (const dir of dirs) mkdirSync(dir);
    const marked = await markTopDirectories(dirs);
    for (const dir of dirs) assert.equal(directoryAttributes(dir).includes('T'), marked, dir);
    // ext2/3/4 take the attribute (the machines svc is developed and tested on keep their temp directories on ext4).
    if (onExtFilesystem(root)) assert.equal(marked, true);
  });

  it('resolves false, never rejects, for a directory that is not there', async () => {
    assert.equal(await markTopDirectories([join(root, 'missing')]), false);
  });

  it('has nothing to do for no directories', async () => {
    assert.equal(await markTopDirectories([]), true);
  });
});
