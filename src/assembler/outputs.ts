/**
 * Where analysed traces go: trace summaries, stories and service edges into the store, story
 * records onto the stories topic. Each has its own bounded, batching, retrying queue, so a slow
 * table never holds up another and a store outage costs memory only up to the queue bounds.
 */
import type { TraceAnalysis } from '../analysis/analyze.js';
import type { Bus, BusMessage } from '../model/bus.js';
import type { Store } from '../model/store.js';
import type { CallStat, OpStat } from '../analysis/call-stats.js';
import { insertCallMinutes, insertOpMinutes } from '../store/call-minutes.js';
import { insertServiceEdges } from '../store/service-edges.js';
import { insertStories, type StoryRow } from '../store/stories.js';
import { insertTraceSummaries, type TraceSummaryRow } from '../store/trace-summaries.js';
import { stringifyJson } from '../util/json.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { CallStatsAccumulator } from './call-stats-accumulator.js';
import { EdgeAccumulator } from './edge-accumulator.js';
import type { AssemblerMetrics } from './metrics.js';
import { RowQueue } from './row-queue.js';
import { STORE_WRITE_BACKOFF } from '../util/retry.js';

/** Insert at this many rows, or when the oldest queued row is FLUSH_MS old. */
const BATCH_ROWS = 5_000;
const FLUSH_MS = 1_000;
/**
 * Edges are summed in memory this long before they are queued (fewer, fuller rows); short enough
 * that the map shows a call about as soon as its trace's story exists.
 */
export const EDGE_FLUSH_MS = 1_000;
const EDGE_MAX_KEYS = 50_000;
/** Operation and call keys summed between two flushes (a second's worth: services x operations x minutes). */
const CALL_STATS_MAX_KEYS = 100_000;
/**
 * Queue bounds, reached only when the store or broker is down for a while. Stories are bounded
 * lower than summaries because one story (paths, critical path, 50 logs) is far bigger.
 */
const MAX_QUEUED = {
  trace_summaries: 100_000,
  stories: 5_000,
  stories_topic: 5_000,
  service_edges: 100_000,
  op_minutes: 100_000,
  call_minutes: 100_000,
} as const;

export type OutputTable = keyof typeof MAX_QUEUED;

export interface OutputsDeps {
  store: Store;
  bus: Bus;
  storiesTopic: string;
  /** The broker's record budget: a bigger story record is not published (its story is still stored). */
  maxRecordBytes: number;
  metrics: AssemblerMetrics;
  logger: Logger;
  nowMs: () => number;
}

export class AssemblerOutputs {
  private readonly summaries: RowQueue<TraceSummaryRow>;
  private readonly stories: RowQueue<StoryRow>;
  private readonly records: RowQueue<BusMessage>;
  private readonly edgeRows: RowQueue<ReturnType<EdgeAccumulator['take']>[number]>;
  private readonly edges = new EdgeAccumulator(EDGE_MAX_KEYS);
  private readonly opRows: RowQueue<OpStat>;
  private readonly callRows: RowQueue<CallStat>;
  private readonly callStats = new CallStatsAccumulator(CALL_STATS_MAX_KEYS);
  private edgesTakenAtMs: number;
  private readonly logOnce = createLogOnce();

  constructor(private readonly deps: OutputsDeps) {
    this.edgesTakenAtMs = deps.nowMs();
    this.summaries = this.queue('trace_summaries', (rows) => insertTraceSummaries(deps.store, rows));
    this.stories = this.queue('stories', (rows) => insertStories(deps.store, rows));
    this.records = this.queue('stories_topic', (messages) => deps.bus.publish(deps.storiesTopic, messages));
    this.edgeRows = this.queue('service_edges', (rows) => insertServiceEdges(deps.store, rows));
    this.opRows = this.queue('op_minutes', (rows) => insertOpMinutes(deps.store, rows));
    this.callRows = this.queue('call_minutes', (rows) => insertCallMinutes(deps.store, rows));
  }

  /** Queues everything one analysed trace produced. */
  add(analysis: TraceAnalysis): void {
    const { story, storyRecord } = analysis;
    this.summaries.push([{ summary: analysis.trace, storyKind: story?.kind ?? '', ops: analysis.ops }]);
    const droppedEdges = this.edges.add(analysis.trace.ts_ns, analysis.edges);
    if (droppedEdges > 0) this.dropped('service_edges', droppedEdges);
    const droppedStats = this.callStats.add(analysis.callStats);
    if (droppedStats > 0) this.dropped('op_minutes', droppedStats);
    if (story === null || storyRecord === null) return;
    this.stories.push([{ story, writtenAtMs: this.deps.nowMs() }]);
    // Keyed by fingerprint (contract: svc.stories key), so one group's stories stay in order.
    const value = Buffer.from(stringifyJson(storyRecord));
    // A record over the budget would be refused by the broker on every retry, blocking the queue.
    if (value.length + story.fingerprint.length > this.deps.maxRecordBytes) this.dropped('stories_topic', 1);
    else this.records.push([{ key: story.fingerprint, value }]);
  }

  /** Queues the summed edges and call statistics once EDGE_FLUSH_MS has passed since the last time (called by the scheduler). */
  tick(): void {
    const nowMs = this.deps.nowMs();
    if (nowMs - this.edgesTakenAtMs < EDGE_FLUSH_MS) return;
    this.edgesTakenAtMs = nowMs;
    this.takeSums();
  }

  /** Queues the summed edges and call statistics. */
  private takeSums(): void {
    this.edgeRows.push(this.edges.take());
    const stats = this.callStats.take();
    this.opRows.push(stats.ops);
    this.callRows.push(stats.calls);
  }

  /** Writes everything still held; a failing store gets `graceMs` before the rest is dropped. */
  async close(graceMs = 15_000): Promise<void> {
    this.takeSums();
    await Promise.all([this.summaries, this.stories, this.records, this.edgeRows, this.opRows, this.callRows].map((queue) => queue.close(graceMs)));
  }

  private queue<T>(table: OutputTable, write: (rows: T[]) => Promise<void>): RowQueue<T> {
    const { metrics, logger } = this.deps;
    return new RowQueue<T>({
      maxRows: BATCH_ROWS,
      maxAgeMs: FLUSH_MS,
      maxQueuedRows: MAX_QUEUED[table],
      backoff: STORE_WRITE_BACKOFF,
      write,
      nowMs: this.deps.nowMs,
      onWritten: (rows) => metrics.rowsWritten.inc({ table }, rows),
      onFailure: (error, attempt) => {
        metrics.writeFailures.inc({ table });
        if (attempt === 1) logger.error({ err: error, table }, 'assembler write failed; retrying with backoff');
      },
      onDropped: (rows) => this.dropped(table, rows),
    });
  }

  private dropped(table: OutputTable, rows: number): void {
    this.deps.metrics.droppedRows.inc({ table }, rows);
    this.logOnce(table, () =>
      this.deps.logger.error(
        { table, rows },
        'assembler output dropped: queue full, an unwritable row or a story record over the record budget (counted in svc_assembler_dropped_rows_total; logged once)',
      ),
    );
  }
}
