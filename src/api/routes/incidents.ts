/** GET /api/v1/incidents: what changed in a window (default the last 15 minutes) against the hour before it. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { analyzeIncident } from '../../analysis/incidents/rank.js';
import { readIncidentInputs, type IncidentRange } from '../../store/reads/incident-inputs.js';
import { readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { inOrder, optionalText } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { incidents } from '../schemas/incidents.js';
import type { TimeWindow } from '../window.js';

export const INCIDENT_WINDOW_SECS = 15 * 60;
/** The window is compared with the hour before it. */
export const BASELINE_SECS = 3_600;
/**
 * Minutes closer to now than this are left out of the window: a trace is summed when it closes,
 * 10 s after its last span, so the newest minute is still filling.
 */
const SETTLE_SECS = 20;

/** Whole minutes: the statistics are per minute. The window keeps at least one. */
export function incidentRange(window: TimeWindow): IncidentRange {
  const settledToS = Math.floor((window.nowMs / 1000 - SETTLE_SECS) / 60) * 60;
  const windowToS = Math.min(Math.floor(window.endMs / 60_000) * 60, settledToS);
  const windowFromS = Math.min(Math.round(window.startMs / 60_000) * 60, windowToS - 60);
  return { baselineFromS: windowFromS - BASELINE_SECS, windowFromS, windowToS };
}

export function registerIncidentRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = {
    method: 'GET',
    url: '/api/v1/incidents',
    query: inOrder(windowQuery(INCIDENT_WINDOW_SECS, deps.nowMs), z.object({ service: optionalText('service') })),
    response: incidents,
  } as const;
  declareRoute(app, route, async ({ query, request }) => {
    const range = incidentRange(query.window);
    const inputs = await readIncidentInputs(deps.store, range, { ...readOptions(context, request), nowMs: query.window.nowMs });
    const report = analyzeIncident({ ...inputs, ...(query.service === undefined ? {} : { service: query.service }) });
    const ns = (s: number) => BigInt(s) * 1_000_000_000n;
    return {
      window_from_ns: ns(range.windowFromS),
      window_to_ns: ns(range.windowToS),
      baseline_from_ns: ns(range.baselineFromS),
      baseline_to_ns: ns(range.windowFromS),
      ...report,
    };
  });
}
