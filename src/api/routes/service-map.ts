/** GET /api/v1/service-map: `{edges, nodes}` with each node's health. */

import type { FastifyInstance } from 'fastify';
import { readEdgeTotals } from '../../store/reads/service-edges.js';
import { readServiceTotals } from '../../store/reads/service-spans.js';
import { oldestAllowedMs } from '../../store/lifetimes.js';
import { createBaselineP99Cache } from '../baseline-p99-cache.js';
import { HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import type { RequestContext } from '../request-context.js';
import { msToNs } from '../window.js';

/** Node health `error` from this share of failed server/consumer spans. */
export const ERROR_RATIO_THRESHOLD = 0.05;
/** Node health `slow` above this multiple of the service's 24 h p99. */
export const SLOW_P99_FACTOR = 2;

export type Health = 'ok' | 'slow' | 'error';

/** The contract's node health rule. */
export function nodeHealth(errorRatio: number, p99Ns: number, baselineP99Ns: number): Health {
  if (errorRatio >= ERROR_RATIO_THRESHOLD) return 'error';
  if (baselineP99Ns > 0 && p99Ns > SLOW_P99_FACTOR * baselineP99Ns) return 'slow';
  return 'ok';
}

export function registerServiceMapRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const baselines = createBaselineP99Cache(async (range, options) => {
    const totals = await readServiceTotals(
      deps.store,
      { fromNs: msToNs(Math.max(range.fromMs, oldestAllowedMs('spans', deps.nowMs()))), toNs: msToNs(range.toMs) },
      options,
    );
    return new Map(totals.map((row) => [row.service, row.p99Ns]));
  });

  const route = { method: 'GET', ...API_ROUTES['service-map'], query: windowQuery(HOUR_SECS, deps.nowMs) } as const;
  declareRoute(app, route, async ({ query, request }) => {
    const { window } = query;
    const { nowMs } = window;
    const options = readOptions(context, request);
    // service_edges has one row per minute: a minute counts when it starts inside the window.
    const edgeRange = { fromSecs: Math.ceil(Math.max(window.startMs, oldestAllowedMs('service_edges', nowMs)) / 1000), toSecs: Math.ceil(window.endMs / 1000) };
    const [edgeRows, totals, baseline] = await Promise.all([
      readEdgeTotals(deps.store, edgeRange, options),
      readServiceTotals(deps.store, nsRange(window, 'spans'), options),
      baselines.get(window.endMs, nowMs, context.queryTimeoutSecs),
    ]);
    const edges = edgeRows.map((row) => ({
      parent: row.parent,
      child: row.child,
      calls: row.calls,
      errors: row.errors,
      error_rate: row.calls > 0 ? row.errors / row.calls : 0,
      avg_duration_ns: row.calls > 0 ? row.durationNsSum / BigInt(row.calls) : 0n,
    }));
    const byService = new Map(totals.map((row) => [row.service, row]));
    // Every service on an edge is a node, even one without server or consumer spans (a client-only caller).
    const services = new Set([...byService.keys(), ...edgeRows.flatMap((row) => [row.parent, row.child])]);
    const nodes = [...services].sort().map((service) => {
      const row = byService.get(service);
      const calls = row?.calls ?? 0;
      const errorRatio = calls > 0 ? (row?.errors ?? 0) / calls : 0;
      const p99Ns = row?.p99Ns ?? 0;
      const baselineP99Ns = baseline.get(service) ?? 0;
      return {
        service,
        calls,
        rate: calls / window.windowSecs,
        error_ratio: errorRatio,
        p99_ns: p99Ns,
        baseline_p99_ns: baselineP99Ns,
        health: nodeHealth(errorRatio, p99Ns, baselineP99Ns),
      };
    });
    return { edges, nodes };
  });
}
