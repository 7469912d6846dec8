/**
 * One classifier from driver failures to the store's two error types. The message never holds
 * SQL or engine text (the API shows only 'storage unavailable'); the original error stays on
 * `cause` for server-side logs.
 */

import { StorageError, StorageTimeoutError } from '../model/store.js';

/** ClickHouse error codes meaning an execution limit was passed (TIMEOUT_EXCEEDED, TOO_SLOW). */
const TIMEOUT_CODES = new Set([159, 160]);

function clickhouseCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { clickhouseCode?: unknown; code?: unknown; message?: unknown };
  if (typeof e.clickhouseCode === 'number') return e.clickhouseCode;
  // @clickhouse/client's ClickHouseError carries the server code as a decimal string.
  if (typeof e.code === 'string' && /^\d+$/.test(e.code)) return Number(e.code);
  if (typeof e.message === 'string') {
    const m = /^Code: (\d+)\./.exec(e.message);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * The ClickHouse error code of a failure the engine answered (a refused statement), looked for on
 * the error and its causes; undefined for a failure that never reached it (a connection error).
 */
export function engineErrorCode(err: unknown): number | undefined {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = clickhouseCode(e);
    if (code !== undefined) return code;
  }
  return undefined;
}

/** Maps any failure of a store operation to StorageTimeoutError or StorageError. */
export function toStorageError(err: unknown, operation: 'query' | 'exec' | 'insert'): StorageError {
  if (err instanceof StorageError) return err;
  const code = clickhouseCode(err);
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return new StorageTimeoutError('storage timeout', { cause: err });
  }
  const suffix = code === undefined ? '' : ` (ClickHouse code ${code})`;
  return new StorageError(`storage ${operation} failed${suffix}`, { cause: err });
}

/** Whole seconds for `max_execution_time`, or 0 for no limit; rejects nonsense early. */
export function executionLimitSecs(timeoutSecs: number | undefined): number {
  if (timeoutSecs === undefined || timeoutSecs === 0) return 0;
  if (!Number.isFinite(timeoutSecs) || timeoutSecs < 0) {
    throw new StorageError(`timeoutSecs must be a finite number >= 0, got ${timeoutSecs}`);
  }
  return timeoutSecs;
}
