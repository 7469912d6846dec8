/**
 * `fingerprinter = parallel`: services are spread over worker threads by a hash of their name;
 * each worker runs the scalar miner for its services, in input order per service, so the
 * templates and ids are exactly those of the scalar miner.
 */
import { WorkerRpc } from '../util/worker-rpc.js';
import { xxh32 } from '../util/xxhash.js';
import type { MinerOptions, TemplateInfo } from './miner.js';
import type { WorkerReply, WorkerRequest } from './parallel-protocol.js';
import type { MineRecord } from './remine.js';
import type { MinerSnapshot } from './snapshot.js';

export interface MinedLine {
  templateId: string;
  template: string;
}

type WorkerHandle = WorkerRpc<WorkerRequest, WorkerReply>;

/** Index of the worker owning a service (stable across processes). */
export function workerForService(service: string, workers: number): number {
  return xxh32(service, 0) % workers;
}

export class ParallelMiner {
  private readonly handles: WorkerHandle[];

  constructor(options: MinerOptions, workers = 2) {
    if (workers < 1) throw new Error('workers must be at least 1');
    this.handles = Array.from(
      { length: workers },
      () => new WorkerRpc<WorkerRequest, WorkerReply>(new URL('./parallel-worker.js', import.meta.url), { name: 'mining worker', workerData: options }),
    );
  }

  /** Mines a batch; results are in input order with each template's text after the batch. */
  async mineBatch(records: readonly MineRecord[]): Promise<MinedLine[]> {
    const n = this.handles.length;
    const owner = new Uint16Array(records.length);
    const parts = this.handles.map(() => ({ services: [] as string[], lines: [] as string[], times: [] as number[], severities: [] as number[] }));
    const ownerCache = new Map<string, number>();
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      let w = ownerCache.get(r.service);
      if (w === undefined) {
        w = workerForService(r.service, n);
        ownerCache.set(r.service, w);
      }
      owner[i] = w;
      const p = parts[w];
      p.services.push(r.service);
      p.lines.push(r.line);
      p.times.push(r.timeMs);
      p.severities.push(r.severity);
    }
    const replies = await Promise.all(
      parts.map((p, w) => {
        const timesMs = Float64Array.from(p.times);
        const severities = Uint8Array.from(p.severities);
        return this.handles[w].request({ kind: 'mine', services: p.services, lines: p.lines, timesMs, severities }, [timesMs.buffer, severities.buffer]);
      }),
    );
    const texts = new Map<string, string>();
    const ids: string[][] = [];
    for (const reply of replies) {
      if (reply.kind !== 'mine') throw new Error('unexpected worker reply');
      for (const [id, text] of reply.texts) texts.set(id, text);
      ids.push(reply.ids);
    }
    const next = new Uint32Array(n);
    const out: MinedLine[] = new Array<MinedLine>(records.length);
    for (let i = 0; i < records.length; i++) {
      const id = ids[owner[i]][next[owner[i]]++];
      out[i] = { templateId: id, template: texts.get(id) ?? '' };
    }
    return out;
  }

  /** Every template of every worker. */
  async templates(): Promise<TemplateInfo[]> {
    const replies = await Promise.all(this.handles.map((h) => h.request({ kind: 'templates' })));
    return replies.flatMap((r) => (r.kind === 'templates' ? r.templates : []));
  }

  /** Snapshots of every worker merged (services are disjoint between workers). */
  async snapshot(): Promise<MinerSnapshot> {
    const replies = await Promise.all(this.handles.map((h) => h.request({ kind: 'snapshot' })));
    const snaps = replies.flatMap((r) => (r.kind === 'snapshot' ? [r.snapshot] : []));
    return { maskingVersion: snaps[0].maskingVersion, keepHttpStatus: snaps[0].keepHttpStatus, templates: snaps.flatMap((s) => s.templates) };
  }

  /** Replaces every worker's state with the snapshot's templates of the services it owns. */
  async restore(snapshot: MinerSnapshot): Promise<void> {
    const n = this.handles.length;
    const parts = this.handles.map(() => ({ ...snapshot, templates: [] as MinerSnapshot['templates'] }));
    for (const t of snapshot.templates) parts[workerForService(t.service, n)].templates.push(t);
    await Promise.all(this.handles.map((h, w) => h.request({ kind: 'restore', snapshot: parts[w] })));
  }

  async close(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.close()));
  }
}
