/**
 * Snapshot and restore of the miner state, so that the logminer keeps its templates (and their
 * ids) across restarts. A snapshot is plain JSON-serializable data.
 */
import { templateText } from './drain.js';
import { MASKING_VERSION } from './masking.js';
import { LogMiner, type MinerOptions } from './miner.js';

/** One stored template with its token pattern. Times are Unix milliseconds. */
export interface SnapshotTemplate {
  templateId: string;
  service: string;
  /** Masked tokens of the first line, space-joined (tokens never hold whitespace). */
  signature: string;
  /** The tokens the template shows: its text split at spaces (words with a digit shown, constant-words.ts). */
  tokens: string[];
  count: number;
  firstSeenMs: number;
  lastSeenMs: number;
  maxSeverity: number;
  sample: string;
  overflow: boolean;
}

export interface MinerSnapshot {
  maskingVersion: number;
  keepHttpStatus: boolean;
  templates: SnapshotTemplate[];
}

/** Captures every template of every service (creation order, overflow last per service). */
export function snapshotMiner(miner: LogMiner): MinerSnapshot {
  const templates: SnapshotTemplate[] = [];
  for (const service of miner.serviceNames()) {
    const { tree } = miner.serviceState(service);
    const all = tree.overflow === null ? tree.clusters : [...tree.clusters, tree.overflow];
    for (const c of all) {
      templates.push({
        templateId: c.id,
        service,
        signature: c.signature,
        tokens: c === tree.overflow ? c.tokens.slice() : splitText(templateText(c)),
        count: c.count,
        firstSeenMs: c.firstSeenMs,
        lastSeenMs: c.lastSeenMs,
        maxSeverity: c.maxSeverity,
        sample: c.sample,
        overflow: c === tree.overflow,
      });
    }
  }
  return { maskingVersion: MASKING_VERSION, keepHttpStatus: miner.options.keepHttpStatus, templates };
}

/** A template's text as tokens (tokens never hold whitespace; a shown run `<*> ssh2` is two). */
function splitText(text: string): string[] {
  return text === '' ? [] : text.split(' ');
}

/**
 * True when a snapshot was mined under other masking rules (a new version or a changed
 * keep_http_status): it cannot be restored, the data must be re-mined (a new masking epoch).
 */
export function needsRemine(snapshot: MinerSnapshot, options: MinerOptions): boolean {
  return snapshot.maskingVersion !== MASKING_VERSION || snapshot.keepHttpStatus !== options.keepHttpStatus;
}

/**
 * Rebuilds a miner from a snapshot. The prefix tree is rebuilt from each template's signature
 * in creation order; tree nodes that only ever led to the overflow template are not kept.
 */
export function restoreMiner(snapshot: MinerSnapshot, options: MinerOptions): LogMiner {
  if (needsRemine(snapshot, options)) {
    throw new Error(`snapshot masking version ${snapshot.maskingVersion} (keep_http_status ${snapshot.keepHttpStatus}) differs from the current one: re-mine`);
  }
  const miner = new LogMiner(options);
  for (const t of snapshot.templates) {
    const { tree } = miner.serviceState(t.service);
    const cluster = t.overflow
      ? tree.overflowCluster(t.sample)
      : tree.restoreCluster(t.signature === '' ? [] : t.signature.split(' '), t.tokens.slice(), t.templateId);
    cluster.count = t.count;
    cluster.firstSeenMs = t.firstSeenMs;
    cluster.lastSeenMs = t.lastSeenMs;
    cluster.maxSeverity = t.maxSeverity;
    cluster.sample = t.sample;
  }
  return miner;
}
