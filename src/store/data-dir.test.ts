import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { prepareDataDir } from './data-dir.js';

const root = mkdtempSync(join(tmpdir(), 'svc-data-dir-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('creates missing parents one level at a time and leaves no probe file behind', () => {
  const dir = join(root, 'a', 'b c', 'data');
  prepareDataDir(dir);
  assert.ok(statSync(dir).isDirectory());
  assert.deepEqual(readdirSync(dir), []);
  prepareDataDir(dir); // an existing directory is fine
});

test('a file in the way is named, whether it is the directory or one of its parents', () => {
  const file = join(root, 'file');
  writeFileSync(file, 'x');
  assert.throws(() => prepareDataDir(file), {
    name: 'ConfigError',
    message: `embedded.data_dir ${file}: cannot create the embedded data directory: ${file} is not a directory`,
  });
  assert.throws(() => prepareDataDir(join(file, 'data')), {
    name: 'ConfigError',
    message: `embedded.data_dir ${join(file, 'data')}: cannot create the embedded data directory: ${file} is not a directory`,
  });
});

test(
  'a file system that answers ENOENT under an existing parent (/proc) is one error, not a loop',
  { skip: statSync('/proc', { throwIfNoEntry: false }) === undefined && 'no /proc here' },
  () => {
    assert.throws(() => prepareDataDir('/proc/x/data', 'embedded.data_dir'), {
      name: 'ConfigError',
      message: 'embedded.data_dir /proc/x/data: cannot create the embedded data directory: /proc does not accept new directories (/proc/x: ENOENT)',
    });
  },
);

test(
  'a directory this user cannot write in is found before the engine opens it',
  { skip: statSync('/sys/kernel', { throwIfNoEntry: false }) === undefined && 'no sysfs here' },
  () => {
    assert.throws(
      () => prepareDataDir('/sys/kernel'),
      (error: Error) => {
        assert.equal(error.name, 'ConfigError');
        assert.match(error.message, /^embedded\.data_dir \/sys\/kernel: cannot open the embedded database: cannot write in the directory: /);
        return true;
      },
    );
  },
);
