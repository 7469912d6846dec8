/** One interface over the configured miner (`off`/`scalar` in-thread, `parallel` in workers), with restore. */
import type { LogminerSettings } from '../config/settings.js';
import { templateText, type Cluster } from '../mining/drain.js';
import { createMiner } from '../mining/create-miner.js';
import { minerOptionsFrom, type MinerOptions } from '../mining/miner.js';
import type { MineRecord } from '../mining/remine.js';
import { restoreMiner, type MinerSnapshot } from '../mining/snapshot.js';

export interface MinedTemplate {
  templateId: string;
  /** The template's text after this batch. */
  template: string;
}

export interface MiningEngine {
  /** Mines a batch in order; one result per record. */
  mine(records: readonly MineRecord[]): Promise<MinedTemplate[]>;
  /** Replaces the state with stored templates (mined under the current masking). */
  restore(snapshot: MinerSnapshot): Promise<void>;
  readonly options: MinerOptions;
  close(): Promise<void>;
}

/** Worker threads of `parallel`: the machines this runs on have 2 cores. */
const PARALLEL_WORKERS = 2;

export function createMiningEngine(
  settings: Pick<LogminerSettings, 'sim_threshold' | 'max_clusters_per_service' | 'keep_http_status' | 'fingerprinter'>,
): MiningEngine {
  const created = createMiner(settings, PARALLEL_WORKERS);
  const options = minerOptionsFrom(settings);
  if (created.mode === 'parallel') {
    const parallel = created.miner;
    return {
      options,
      mine: (records) => parallel.mineBatch(records),
      restore: (snapshot) => parallel.restore(snapshot),
      close: () => parallel.close(),
    };
  }
  let miner = created.miner;
  return {
    options,
    async mine(records) {
      const clusters = records.map((r) => miner.mine(r.service, r.line, r.timeMs, r.severity));
      // Texts after the whole batch, as the parallel miner reports them: one join per cluster,
      // not one per line (a batch's lines fall into few clusters).
      const texts = new Map<Cluster, string>();
      return clusters.map((c) => {
        let template = texts.get(c);
        if (template === undefined) texts.set(c, (template = templateText(c)));
        return { templateId: c.id, template };
      });
    },
    async restore(snapshot) {
      miner = restoreMiner(snapshot, options);
    },
    async close() {},
  };
}
