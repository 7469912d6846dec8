/** Re-mining (the `svc remine` tool): rebuild templates from stored lines under the current masking. */
import { MASKING_VERSION } from './masking.js';
import { LogMiner, type MinerOptions } from './miner.js';

/** One stored log line to mine. */
export interface MineRecord {
  service: string;
  line: string;
  /** Unix milliseconds. */
  timeMs: number;
  severity: number;
}

export interface RemineResult {
  miner: LogMiner;
  /** Template id per input record, in input order. */
  templateIds: string[];
  /** The masking version the new templates were mined under (starts a masking epoch). */
  maskingVersion: number;
}

/** Mines `records` (oldest first) into a fresh miner under the current masking version. */
export function remine(records: Iterable<MineRecord>, options: MinerOptions): RemineResult {
  const miner = new LogMiner(options);
  const templateIds: string[] = [];
  for (const r of records) templateIds.push(miner.mine(r.service, r.line, r.timeMs, r.severity).id);
  return { miner, templateIds, maskingVersion: MASKING_VERSION };
}
