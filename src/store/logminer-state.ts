/** The logminer's masking state: the masking in force and when its epoch started (one logical row). */

import type { Store } from '../model/store.js';

export interface LogminerState {
  maskingVersion: number;
  keepHttpStatus: boolean;
  /** Wall-clock start of the current masking epoch, Unix ms; 0 when none is in force (fresh data). */
  epochStartMs: number;
}

/** The newest state, or null before the logminer first ran on this database. */
export async function readLogminerState(store: Store): Promise<LogminerState | null> {
  const rows = await store.query<{ masking_version: number; keep_http_status: boolean; epoch_start_ms: string }>(
    `SELECT masking_version, keep_http_status, epoch_start_ms FROM logminer_state ORDER BY updated_at_ms DESC LIMIT 1`,
  );
  if (rows.length === 0) return null;
  return { maskingVersion: Number(rows[0].masking_version), keepHttpStatus: Boolean(rows[0].keep_http_status), epochStartMs: Number(rows[0].epoch_start_ms) };
}

/** Records a new state version. */
export async function writeLogminerState(store: Store, state: LogminerState, updatedAtMs: number): Promise<void> {
  await store.insert(
    'logminer_state',
    ['masking_version', 'keep_http_status', 'epoch_start_ms', 'updated_at_ms'],
    [[state.maskingVersion, state.keepHttpStatus, Math.floor(state.epochStartMs), Math.floor(updatedAtMs)]],
  );
}
