/**
 * Start-up: the masking epoch decision and the restore of the miner and the live state from
 * storage (DESIGN.md §5, masking epochs).
 * - Nothing stored yet (a fresh data directory): the current masking, no epoch, no warm-up.
 * - Same masking version and keep_http_status as stored: templates restored (their ids stay), the
 *   stored epoch start kept (a restart inside an epoch's quiet period stays quiet).
 * - Anything else (an upgrade, a changed keep_http_status): a new epoch starting now, and the
 *   contract's only effect of it is no `new` alerts for 15 minutes. Everything else carries on:
 *   templates, counts, first-seen times, minute counts and running spikes are restored as above.
 *   Lines the new masking masks as before keep their templates; lines it masks differently form
 *   new templates, quietly. The carried templates are re-stamped with the current masking version
 *   so the next start (same masking) restores them too.
 */
import { MASKING_VERSION } from '../mining/masking.js';
import type { MinerSnapshot } from '../mining/snapshot.js';
import type { Store } from '../model/store.js';
import { readLatestSpikes, storedToMined } from '../store/log-alerts.js';
import { readLogminerState, writeLogminerState, type LogminerState } from '../store/logminer-state.js';
import { readMinuteCounts } from '../store/template-minutes.js';
import { readAllTemplates, upsertTemplates, type TemplateRow } from '../store/templates.js';
import type { LogAlert } from '../mining/alert-types.js';
import type { LiveState } from './live-state.js';
import type { MiningEngine } from './mining-engine.js';

export interface RestoreResult {
  /** Start of the masking epoch in force (Unix ms), or null when none is. */
  epochStartMs: number | null;
  newEpoch: boolean;
  restoredTemplates: number;
  /** Latest spike per template, so a running spike continues under its id. */
  previousSpikes: Map<string, LogAlert>;
}

/** Whether stored state was mined under the masking in force now. */
export function sameMasking(state: LogminerState | null, keepHttpStatus: boolean): boolean {
  return state !== null && state.maskingVersion === MASKING_VERSION && state.keepHttpStatus === keepHttpStatus;
}

/** Tokens of a stored template text (tokens never hold whitespace; an empty line has none). */
export function splitTokens(text: string): string[] {
  return text === '' ? [] : text.split(' ');
}

/** The snapshot the miner restores from, in creation order. */
export function snapshotFromRows(rows: readonly TemplateRow[], keepHttpStatus: boolean): MinerSnapshot {
  return {
    maskingVersion: MASKING_VERSION,
    keepHttpStatus,
    templates: rows.map((r) => ({
      templateId: r.templateId,
      service: r.service,
      signature: r.signature,
      tokens: splitTokens(r.template),
      count: r.count,
      firstSeenMs: Number(r.firstSeenNs / 1_000_000n),
      lastSeenMs: Number(r.lastSeenNs / 1_000_000n),
      maxSeverity: r.maxSeverity,
      sample: r.sample,
      overflow: r.overflow,
    })),
  };
}

export async function restoreLogminer(deps: {
  store: Store;
  engine: MiningEngine;
  state: LiveState;
  nowMs: number;
  keepHttpStatus: boolean;
  keepMinutes: number;
}): Promise<RestoreResult> {
  const { store, state, nowMs, keepHttpStatus } = deps;
  const stored = await readLogminerState(store);
  const rows = await readAllTemplates(store, nowMs);
  const previousSpikes = new Map<string, LogAlert>();
  if (stored === null && rows.length === 0) {
    await writeLogminerState(store, { maskingVersion: MASKING_VERSION, keepHttpStatus, epochStartMs: 0 }, nowMs);
    return { epochStartMs: null, newEpoch: false, restoredTemplates: 0, previousSpikes };
  }
  const newEpoch = !sameMasking(stored, keepHttpStatus);
  // In a new epoch the state in force is the stored one's (any version when none was recorded);
  // rows of older versions left behind by a re-mine are not part of it.
  const carriedVersion = newEpoch ? stored?.maskingVersion : MASKING_VERSION;
  const current = rows.filter((r) => carriedVersion === undefined || r.maskingVersion === carriedVersion);
  if (newEpoch) {
    // Templates first, then the state: a crash in between starts the epoch again from the same rows.
    await upsertTemplates(
      store,
      current.map((r) => ({ ...r, maskingVersion: MASKING_VERSION, updatedAtMs: Math.max(nowMs, r.updatedAtMs + 1) })),
    );
    await writeLogminerState(store, { maskingVersion: MASKING_VERSION, keepHttpStatus, epochStartMs: nowMs }, nowMs);
  }
  await deps.engine.restore(snapshotFromRows(current, keepHttpStatus));
  for (const r of current) {
    state.templates.set(r.templateId, {
      templateId: r.templateId,
      service: r.service,
      template: r.template,
      count: r.count,
      firstSeenNs: r.firstSeenNs,
      lastSeenNs: r.lastSeenNs,
      maxSeverity: r.maxSeverity,
      sample: r.sample,
      signature: r.signature,
      overflow: r.overflow,
      createdSeq: r.createdSeq,
    });
    state.advanceClock(r.service, r.lastSeenNs);
  }
  const services = [...new Set(current.map((r) => r.service))];
  const wallMinute = Math.floor(nowMs / 60_000);
  for (const c of await readMinuteCounts(store, services, wallMinute - deps.keepMinutes, wallMinute + 10)) {
    state.addMinuteHits(c.templateId, c.service, c.minute, c.hits, nowMs);
  }
  const sinceNs = BigInt(nowMs - deps.keepMinutes * 60_000) * 1_000_000n;
  for (const row of await readLatestSpikes(store, sinceNs)) previousSpikes.set(row.a_template_id, storedToMined(row));
  const epochStartMs = newEpoch ? nowMs : stored !== null && stored.epochStartMs > 0 ? stored.epochStartMs : null;
  return { epochStartMs, newEpoch, restoredTemplates: current.length, previousSpikes };
}
