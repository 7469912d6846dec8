/**
 * GET /api/v1/pipeline/lag: committed and end offsets of every consumer group on each topic it
 * consumes, summed over partitions. The broker is read at most every 5 s; concurrent requests
 * share one read and its result (a failure too, so a down broker is not hammered).
 */

import type { FastifyInstance } from 'fastify';
import type { Counter } from 'prom-client';
import type { Bus } from '../../model/bus.js';
import type { Logger } from '../../util/log.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { kafkaUnavailable } from '../errors.js';

/** Contract: the broker is read at most this often. */
export const LAG_REFRESH_MS = 5_000;
/** A broker read still pending after this is a failure (503), not a hung request. */
export const LAG_READ_TIMEOUT_MS = 10_000;

export interface LagRow {
  group: string;
  topic: string;
  committed: bigint;
  end: bigint;
  lag: bigint;
}

export interface LagReaderDeps {
  bus: Pick<Bus, 'groups' | 'offsets'>;
  /** `svc_api_lag_errors_total`: one per failed broker read. */
  lagErrors: Pick<Counter, 'inc'>;
  logger: Logger;
  nowMs: () => number;
}

/** Reads every group's lag from the bus. */
export async function readLag(bus: Pick<Bus, 'groups' | 'offsets'>): Promise<LagRow[]> {
  const groups = await bus.groups();
  const pairs = groups.flatMap(({ group, topics }) => [...new Set(topics)].map((topic) => ({ group, topic })));
  const rows = await Promise.all(
    pairs.map(async ({ group, topic }) => {
      let committed = 0n;
      let end = 0n;
      for (const partition of await bus.offsets(group, topic)) {
        committed += partition.committed;
        end += partition.end;
      }
      return { group, topic, committed, end, lag: end - committed };
    }),
  );
  return rows.sort((a, b) => (a.group === b.group ? compare(a.topic, b.topic) : compare(a.group, b.group)));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The shared, rate-limited read: `current()` answers the cached rows or the one read in flight. */
export function createLagReader(deps: LagReaderDeps) {
  let cached: { atMs: number; result: Promise<LagRow[]>; settled: boolean } | undefined;

  function fresh(): Promise<LagRow[]> {
    return withTimeout(readLag(deps.bus), LAG_READ_TIMEOUT_MS).catch((error: unknown) => {
      deps.lagErrors.inc();
      deps.logger.warn({ err: error }, 'consumer lag could not be read from the bus');
      throw kafkaUnavailable();
    });
  }

  return {
    current(): Promise<LagRow[]> {
      const nowMs = deps.nowMs();
      // The age counts from when the read started, and a read in flight is always shared, so the
      // broker sees at most one read per 5 s and never two at once.
      if (cached === undefined || (cached.settled && nowMs - cached.atMs >= LAG_REFRESH_MS)) {
        const entry = { atMs: nowMs, result: fresh(), settled: false };
        const settle = () => {
          entry.settled = true;
        };
        // Every waiter gets the rejection; this handler only marks the read done.
        entry.result.then(settle, settle);
        cached = entry;
      }
      return cached.result;
    },
  };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function registerPipelineLagRoute(app: FastifyInstance, reader: ReturnType<typeof createLagReader>): void {
  declareRoute(app, { method: 'GET', ...API_ROUTES['pipeline/lag'] }, async () => reader.current());
}
