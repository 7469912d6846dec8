/** Picks the miner for `logminer.fingerprinter`: scalar (cache on or off) or parallel workers. */
import type { LogminerSettings } from '../config/settings.js';
import { LogMiner, minerOptionsFrom } from './miner.js';
import { ParallelMiner } from './parallel.js';

export type AnyMiner = { mode: 'scalar'; miner: LogMiner } | { mode: 'parallel'; miner: ParallelMiner };

/** `off` and `scalar` run in-thread; `parallel` spreads services over `workers` threads; `gpu` throws. */
export function createMiner(
  settings: Pick<LogminerSettings, 'sim_threshold' | 'max_clusters_per_service' | 'keep_http_status' | 'fingerprinter'>,
  workers = 2,
): AnyMiner {
  const options = minerOptionsFrom(settings);
  if (settings.fingerprinter === 'parallel') return { mode: 'parallel', miner: new ParallelMiner(options, workers) };
  return { mode: 'scalar', miner: new LogMiner(options) };
}
