/**
 * How many exports may be in flight so that an admitted export is answered within about
 * `targetAnswerMs`: by Little's law, the rate at which exports are being answered times that
 * target. Under a flood, admitting more only makes every admitted export wait longer (the main
 * thread decodes and publishes them in turn) while exporters time out; so the rest are refused at
 * once, retryably. It never refuses at a rate svc sustains: below capacity the exports in flight
 * stay well under the limit, and when the limit caps them, their answers come faster than the
 * target, so the measured rate, and with it the limit, rises until answers take about the target.
 * Pure: the clock is the caller's.
 */
export interface AnswerRateLimitOptions {
  targetAnswerMs: number;
  /** Exports always allowed in flight, whatever the rate (a cold start, one slow export). */
  floorRequests: number;
  /** Span over which answers are counted. */
  windowMs: number;
}

const BUCKETS = 10;

export class AnswerRateLimit {
  private readonly counts = new Array<number>(BUCKETS).fill(0);
  /** Index of the bucket `nowMs` falls in, as of the last call. */
  private bucketEpoch = 0;

  constructor(private readonly options: AnswerRateLimitOptions) {}

  /** Counts one export answered at `nowMs`. */
  answered(nowMs: number): void {
    this.advance(nowMs);
    this.counts[this.bucketEpoch % BUCKETS] = (this.counts[this.bucketEpoch % BUCKETS] ?? 0) + 1;
  }

  /** Exports that may be in flight at `nowMs`. */
  limit(nowMs: number): number {
    this.advance(nowMs);
    let answered = 0;
    for (const count of this.counts) answered += count;
    const perMs = answered / this.options.windowMs;
    return Math.max(this.options.floorRequests, Math.ceil(perMs * this.options.targetAnswerMs));
  }

  /** Moves to the bucket of `nowMs`, emptying the buckets passed over. */
  private advance(nowMs: number): void {
    const epoch = Math.floor(nowMs / (this.options.windowMs / BUCKETS));
    if (epoch <= this.bucketEpoch) return;
    const passed = Math.min(BUCKETS, epoch - this.bucketEpoch);
    for (let step = 1; step <= passed; step++) this.counts[(this.bucketEpoch + step) % BUCKETS] = 0;
    this.bucketEpoch = epoch;
  }
}
