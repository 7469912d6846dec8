/** list_services and get_service_health: which services exist, and how one is doing with its neighbours. */

import type { RouteReply } from '../../api/schemas/routes.js';
import { at } from '../../util/at.js';
import { getRoute } from '../api-caller.js';
import { requiredString, windowArgs } from '../args.js';
import { fitList, toolAnswer } from '../bound.js';
import { exactValues, nsToMs } from '../exact.js';
import { defineTool } from '../tool.js';

type Row = Record<string, unknown>;

export const listServicesTool = defineTool({
  name: 'list_services',
  title: 'List services',
  description:
    'Names of the services with spans in the last 24 hours, sorted (at most 500). Use a name with get_service_health, search_traces or the service filters.',
  args: {},
  async run(caller) {
    const names = await getRoute(caller, 'services', {});
    const { answer, shown } = fitList(
      names,
      (items, truncated) => ({ total: names.length, services: items, ...(truncated ? { truncated } : {}) }),
      'services',
      'use search_traces or list_story_groups with a service filter',
    );
    return toolAnswer(
      answer,
      `${names.length} services${shown < names.length ? ` (showing ${shown})` : ''}: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}`,
    );
  },
});

const SERIES_POINTS = 24;

type RedBucket = RouteReply<'services/:service'>['buckets'][number];

/** The RED series cut to at most 24 points (mean rate, rate-weighted error ratio, largest p99); points without calls omitted. */
export function summariseRed(
  buckets: RedBucket[],
  bucketSecs: number,
): { bucket_secs: number; points: { bucket: number; rate: number; error_ratio: number; p99_ms: number }[] } {
  const per = Math.max(1, Math.ceil(buckets.length / SERIES_POINTS));
  const points = [];
  for (let i = 0; i < buckets.length; i += per) {
    const group = buckets.slice(i, i + per);
    const rate = group.reduce((sum, b) => sum + b.rate, 0);
    if (rate === 0) continue;
    const errors = group.reduce((sum, b) => sum + b.rate * b.error_ratio, 0);
    points.push({
      bucket: at(group, 0).bucket,
      rate: round(rate / group.length),
      error_ratio: rate > 0 ? round(errors / rate) : 0,
      p99_ms: Math.max(...group.map((b) => nsToMs(b.p99_ns))),
    });
  }
  return { bucket_secs: bucketSecs * per, points };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

function neighbour(edge: Row, other: string): Row {
  return exactValues({
    service: edge[other],
    calls: edge.calls,
    errors: edge.errors,
    error_rate: edge.error_rate,
    avg_duration_ms: nsToMs(edge.avg_duration_ns),
  }) as Row;
}

export const getServiceHealthTool = defineTool({
  name: 'get_service_health',
  title: "Get a service's health",
  description:
    'Health of one service over a window (default the last hour): calls, errors and error ratio of its server and consumer spans, request rate, p50/p95/p99 latency, ' +
    'the RED series summarised to at most 24 points (points without calls omitted), its map health (ok, slow or error) with p99 against its 24-hour baseline p99, ' +
    'and its callers and callees with calls, errors and error rates. Follow with list_story_groups or search_traces filtered by the service.',
  args: {
    service: requiredString('service')
      .min(1, { error: 'service must not be empty' })
      .max(200, { error: 'service must be at most 200 characters' })
      .describe('The service name (see list_services).'),
    ...windowArgs('1h'),
  },
  async run(caller, args) {
    const window = { since: args.since, until: args.until };
    const red = await getRoute(caller, 'services/:service', {
      params: { service: args.service },
      query: window,
      notFoundMessage: `no service ${JSON.stringify(args.service)} with spans in the window (see list_services, or a longer since)`,
    });
    const map = await getRoute(caller, 'service-map', { query: window });
    const buckets = red.buckets;
    const calls = red.calls;
    const errors = red.errors;
    const active = buckets.filter((b) => b.rate > 0);
    const node = map.nodes.find((item) => item.service === args.service);
    const callers = map.edges.filter((edge) => edge.child === args.service).map((edge) => neighbour(edge, 'parent'));
    const callees = map.edges.filter((edge) => edge.parent === args.service).map((edge) => neighbour(edge, 'child'));
    const byErrorRate = (a: Row, b: Row) => Number(b.error_rate) - Number(a.error_rate) || Number(b.calls) - Number(a.calls);
    callers.sort(byErrorRate);
    callees.sort(byErrorRate);
    const fixed = {
      service: args.service,
      calls,
      errors,
      error_ratio: calls > 0 ? round(errors / calls) : 0,
      rate_per_sec: {
        mean: round(active.length > 0 ? active.reduce((sum, b) => sum + b.rate, 0) / buckets.length : 0),
        max: round(Math.max(0, ...buckets.map((b) => b.rate))),
      },
      p99_ms_max: Math.max(0, ...active.map((b) => nsToMs(b.p99_ns))),
      p95_ms_max: Math.max(0, ...active.map((b) => nsToMs(b.p95_ns))),
      p50_ms_max: Math.max(0, ...active.map((b) => nsToMs(b.p50_ns))),
      health:
        node === undefined
          ? null
          : exactValues({
              health: node.health,
              error_ratio: node.error_ratio,
              p99_ns: node.p99_ns,
              baseline_p99_ns: node.baseline_p99_ns,
              p99_ms: nsToMs(node.p99_ns),
              baseline_p99_ms: nsToMs(node.baseline_p99_ns),
            }),
      series: summariseRed(buckets, red.bucket_secs),
      callers,
    };
    const { answer } = fitList(
      callees,
      (shown, truncated) => ({ ...fixed, callees: shown, ...(truncated ? { truncated } : {}) }),
      'callees',
      'a shorter since',
    );
    const worstCallee = callees[0];
    const text =
      `${args.service}: ${calls} calls, ${errors} errors (${(fixed.error_ratio * 100).toFixed(1)}%), p99 up to ${fixed.p99_ms_max} ms, health ${String(node?.health ?? 'unknown')}. ` +
      `${callers.length} callers, ${callees.length} callees${worstCallee === undefined ? '' : `; worst callee ${String(worstCallee.service)} error rate ${String(worstCallee.error_rate)}`}.`;
    return toolAnswer(answer, text);
  },
});
