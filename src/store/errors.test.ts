import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorageError, StorageTimeoutError } from '../model/store.js';
import { executionLimitSecs, toStorageError } from './errors.js';

describe('toStorageError', () => {
  it('maps ClickHouse timeout codes to StorageTimeoutError from either driver', () => {
    assert.ok(toStorageError({ clickhouseCode: 159, message: 'Code: 159. Timeout exceeded' }, 'query') instanceof StorageTimeoutError);
    assert.ok(toStorageError({ code: '159', message: 'Timeout exceeded' }, 'query') instanceof StorageTimeoutError);
    assert.ok(toStorageError(new Error('Code: 160. DB::Exception: too slow'), 'query') instanceof StorageTimeoutError);
  });

  it('hides engine text and SQL from the message but keeps the cause', () => {
    const cause = new Error('Code: 47. DB::Exception: Unknown identifier `x` in SELECT x FROM spans');
    const err = toStorageError(cause, 'query');
    assert.ok(err instanceof StorageError && !(err instanceof StorageTimeoutError));
    assert.equal(err.message, 'storage query failed (ClickHouse code 47)');
    assert.equal(err.cause, cause);
    assert.equal(toStorageError(new Error('ECONNREFUSED'), 'insert').message, 'storage insert failed');
  });

  it('validates the execution limit', () => {
    assert.equal(executionLimitSecs(undefined), 0);
    assert.equal(executionLimitSecs(15), 15);
    assert.throws(() => executionLimitSecs(-1), StorageError);
  });
});
