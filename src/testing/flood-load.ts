import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { buildTraceExport, grpcClient, grpcExport, postExport } from './otlp-load.js';
import { decodeRpcStatus } from './rpc-status.js';

/**
 * A flood of keep-alive exporters for the flood benchmark: each exporter holds one connection
 * (HTTP/1.1 keep-alive or an HTTP/2 gRPC channel of its own), sends one export at a time, and
 * behaves as an OTLP exporter does: after a retryable answer it waits the Retry-After / RetryInfo
 * delay and sends the same export again; an export unanswered after `timeoutMs` is given up
 * (and its connection dropped), as the OTel SDKs' 10 s export timeout does.
 *
 * Every export carries fresh trace ids: a template export's ids are rewritten in place per send
 * (its first 4 bytes become the export's number), so building a 1,000-span export costs a copy.
 */

export interface FloodOptions {
  httpPort: number;
  grpcPort: number;
  httpExporters: number;
  grpcExporters: number;
  tracesPerExport: number;
  spansPerTrace: number;
  durationMs: number;
  timeoutMs: number;
}

export type AnswerKind = 'accepted' | 'refused' | 'timeout' | 'error';

export interface FloodAnswer {
  kind: AnswerKind;
  /** From the first byte sent to the answer (or the give-up). */
  answerMs: number;
}

export interface FloodResult {
  answers: FloodAnswer[];
  /** Trace ids (hex) of every accepted export. */
  acceptedTraceIds: string[];
  acceptedSpans: number;
  /** Retry delays the refusals asked for, seconds (each distinct value once). */
  retryDelaysSecs: number[];
  spansPerExport: number;
  exportBytes: number;
}

/** A template export and where its trace ids sit, so that fresh copies cost one copy and a few writes. */
class ExportStamper {
  private readonly template: Buffer;
  private readonly idOffsets: number[] = [];
  private readonly traceIds: Buffer[] = [];
  private next = 1;

  constructor(tracesPerExport: number, spansPerTrace: number) {
    const { body, traces } = buildTraceExport('flood', tracesPerExport, spansPerTrace);
    this.template = body;
    for (const { traceId } of traces) {
      const id = Buffer.from(traceId, 'hex');
      this.traceIds.push(id);
      for (let at = body.indexOf(id); at !== -1; at = body.indexOf(id, at + id.length)) this.idOffsets.push(at);
    }
  }

  get bytes(): number {
    return this.template.length;
  }

  /** A copy with fresh trace ids; returns it and its ids. */
  stamp(): { body: Buffer; traceIds: string[] } {
    const number = this.next++;
    const body = Buffer.from(this.template);
    for (const at of this.idOffsets) body.writeUInt32BE(number, at);
    const traceIds = this.traceIds.map((id) => {
      const fresh = Buffer.from(id);
      fresh.writeUInt32BE(number, 0);
      return fresh.toString('hex');
    });
    return { body, traceIds };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the flood until `durationMs` has passed and every exporter's last export is answered or given up. */
export async function runFlood(options: FloodOptions): Promise<FloodResult> {
  const stamper = new ExportStamper(options.tracesPerExport, options.spansPerTrace);
  const spansPerExport = options.tracesPerExport * options.spansPerTrace;
  const result: FloodResult = { answers: [], acceptedTraceIds: [], acceptedSpans: 0, retryDelaysSecs: [], spansPerExport, exportBytes: stamper.bytes };
  const delays = new Set<number>();
  const endMs = Date.now() + options.durationMs;

  /** One exporter's loop: `send` answers an export's kind and the delay a refusal asked for. */
  async function exporter(send: (body: Buffer) => Promise<{ kind: AnswerKind; retryAfterSecs?: number }>): Promise<void> {
    let pending = stamper.stamp();
    while (Date.now() < endMs) {
      const startedMs = performance.now();
      const answer = await send(pending.body);
      result.answers.push({ kind: answer.kind, answerMs: performance.now() - startedMs });
      if (answer.kind === 'accepted') {
        for (const id of pending.traceIds) result.acceptedTraceIds.push(id);
        result.acceptedSpans += spansPerExport;
        pending = stamper.stamp();
      } else if (answer.retryAfterSecs !== undefined) {
        delays.add(answer.retryAfterSecs);
        await sleep(answer.retryAfterSecs * 1000);
      } else {
        await sleep(1000);
      }
    }
  }

  function httpExporter(): Promise<void> {
    let agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    return exporter(async (body) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        agent.destroy();
      }, options.timeoutMs);
      try {
        const answer = await postExport(agent, options.httpPort, '/v1/traces', body);
        if (answer.status === 200) return { kind: 'accepted' };
        if (answer.status === 429 || answer.status === 503) return { kind: 'refused', retryAfterSecs: Number(answer.retryAfter ?? 1) };
        return { kind: 'error' };
      } catch {
        agent.destroy();
        agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        return { kind: timedOut ? 'timeout' : 'error' };
      } finally {
        clearTimeout(timer);
      }
    }).finally(() => agent.destroy());
  }

  function grpcExporter(): Promise<void> {
    const client = grpcClient(options.grpcPort);
    return exporter(async (body) => {
      const answer = await grpcExport(client, body, options.timeoutMs);
      if (answer.code === grpc.status.OK) return { kind: 'accepted' };
      if (answer.code === grpc.status.DEADLINE_EXCEEDED) return { kind: 'timeout' };
      if (answer.statusDetails !== undefined) return { kind: 'refused', retryAfterSecs: decodeRpcStatus(answer.statusDetails).retryDelaysSecs[0] ?? 1 };
      return { kind: 'error' };
    }).finally(() => client.close());
  }

  await Promise.all([
    ...Array.from({ length: options.httpExporters }, () => httpExporter()),
    ...Array.from({ length: options.grpcExporters }, () => grpcExporter()),
  ]);
  result.retryDelaysSecs = [...delays].sort((a, b) => a - b);
  return result;
}

/** The `q` quantile (0..1) of `values`, nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

export interface TreeRss {
  anonBytes: number;
  fileBytes: number;
}

/** Anonymous and file-backed (plus shared-memory) resident bytes of `pid` and all its descendants (Linux /proc). */
export function treeRss(pid: number): TreeRss {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(parent) ?? [];
      list.push(Number(name));
      children.set(parent, list);
    } catch {
      // ended while listed
    }
  }
  const total: TreeRss = { anonBytes: 0, fileBytes: 0 };
  const visit = (at: number): void => {
    try {
      const status = readFileSync(`/proc/${at}/status`, 'utf8');
      const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) * 1024;
      total.anonBytes += kib('RssAnon');
      total.fileBytes += kib('RssFile') + kib('RssShmem');
    } catch {
      return;
    }
    for (const child of children.get(at) ?? []) visit(child);
  };
  visit(pid);
  return total;
}
