/**
 * Endpoint baselines for slow detection and baseline_diff: reloaded every `baseline_refresh_secs`
 * from the last `baseline_window_minutes` of non-error trace summaries, built by analysis's
 * buildBaselines and passed through BaselineCarry (which keeps a good baseline through a slowdown
 * for at most two windows). A failed reload keeps the baselines in use.
 */
import { buildBaselines, type EndpointBaseline } from '../analysis/baseline.js';
import { BaselineCarry } from '../analysis/baseline-carry.js';
import type { BaselineSample } from '../analysis/types.js';
import type { AssemblerSettings, ThresholdSettings } from '../config/settings.js';
import type { Logger } from '../util/log.js';

/** Most recent traces read per endpoint: p99 and a 1 % presence are well defined over 1,000. */
export const BASELINE_TRACES_PER_ENDPOINT = 1_000;
/** Rows read per reload in all, so that many endpoints cannot make a reload unbounded. */
export const BASELINE_MAX_ROWS = 200_000;

export type SampleReader = (query: { sinceNs: bigint; nowMs: number; perEndpoint: number; maxRows: number }) => Promise<Map<string, BaselineSample[]>>;

export interface BaselinesOptions {
  assembler: Pick<AssemblerSettings, 'baseline_window_minutes' | 'baseline_refresh_secs'>;
  thresholds: ThresholdSettings;
  readSamples: SampleReader;
  nowMs: () => number;
  logger: Logger;
  onRefreshed: (trustedEndpoints: number) => void;
  onFailure: (error: unknown) => void;
}

/** Holds the effective baselines and reloads them on a timer. */
export class Baselines {
  private readonly carry: BaselineCarry;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failing = false;

  constructor(private readonly options: BaselinesOptions) {
    this.carry = new BaselineCarry({ windowMinutes: options.assembler.baseline_window_minutes, thresholds: options.thresholds, clockMs: options.nowMs });
  }

  /** The effective baseline of an endpoint key, or null (analysis's baseline lookup). */
  readonly lookup = (key: string): EndpointBaseline | null => this.carry.get(key);

  /** Reloads now; never rejects (a failure is logged once per failing streak and counted). */
  refresh(): Promise<void> {
    this.running ??= this.reload().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Reloads every baseline_refresh_secs until stop(). */
  start(): void {
    this.timer = setInterval(() => void this.refresh(), this.options.assembler.baseline_refresh_secs * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async reload(): Promise<void> {
    const nowMs = this.options.nowMs();
    const windowNs = BigInt(this.options.assembler.baseline_window_minutes) * 60_000_000_000n;
    try {
      const samples = await this.options.readSamples({
        sinceNs: BigInt(Math.floor(nowMs)) * 1_000_000n - windowNs,
        nowMs,
        perEndpoint: BASELINE_TRACES_PER_ENDPOINT,
        maxRows: BASELINE_MAX_ROWS,
      });
      const effective = this.carry.update(buildBaselines(samples, this.options.thresholds));
      let trusted = 0;
      for (const baseline of effective.values()) if (baseline.trusted) trusted++;
      this.options.onRefreshed(trusted);
      if (this.failing) this.options.logger.info('baseline reload works again');
      this.failing = false;
    } catch (error) {
      this.options.onFailure(error);
      if (!this.failing) this.options.logger.error({ err: error }, 'baseline reload failed; keeping the baselines in use (logged once until it works again)');
      this.failing = true;
    }
  }
}
