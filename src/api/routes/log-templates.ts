/** GET /api/v1/log-templates and /api/v1/log-templates/{id}. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { readSilences } from '../../store/silence.js';
import { tracesWithStories } from '../../store/reads/log-alert-shape.js';
import { readLogAlerts } from '../../store/reads/log-alerts.js';
import { readTemplateHitCounts } from '../../store/reads/log-hit-counts.js';
import { readAlertingTemplates, readRecentHits, readTemplateRows } from '../../store/reads/log-templates.js';
import { DAY_SECS, HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { notFound } from '../errors.js';
import { decimalU64, inOrder, optionalText } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { msToNs } from '../window.js';

/** Contract limits: templates returned, recent hits of a template, alerts of the 7 days before the window end. */
export const MAX_TEMPLATES = 200;
export const MAX_RECENT_HITS = 20;
const ALERT_HISTORY_MS = 7 * DAY_SECS * 1000;
/** The detail's alerts are a short history, not a paged list. */
const MAX_DETAIL_ALERTS = 200;

export function registerLogTemplateRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const listRoute = {
    method: 'GET',
    ...API_ROUTES['log-templates'],
    query: inOrder(windowQuery(HOUR_SECS, deps.nowMs), z.object({ service: optionalText('service'), q: optionalText('q') })),
  } as const;
  declareRoute(app, listRoute, async ({ query: { service, q, window }, request }) => {
    const options = readOptions(context, request);
    const counts = await readTemplateHitCounts(
      deps.store,
      { ...nsRange(window, 'template_hits'), service, q, nowMs: window.nowMs },
      window.bucketSecs,
      MAX_TEMPLATES,
      options,
    );
    const ids = counts.map((c) => c.template_id);
    const [rows, alerting, silences] = await Promise.all([
      readTemplateRows(deps.store, ids, window.nowMs, options),
      readAlertingTemplates(deps.store, ids, window.endMs, options),
      readSilences(deps.store, ids, options),
    ]);
    const out = [];
    for (const c of counts) {
      const row = rows.get(c.template_id);
      if (row === undefined) continue; // the template itself passed its lifetime
      out.push({
        template_id: row.template_id,
        service: row.service,
        template: row.template,
        count: row.count,
        first_seen_ns: row.first_seen_ns,
        last_seen_ns: row.last_seen_ns,
        max_severity: row.max_severity,
        alerting: alerting.has(row.template_id),
        silence_enabled: silences.get(row.template_id)?.enabled ?? false,
        bucket_secs: window.bucketSecs,
        buckets: c.buckets,
      });
    }
    return out;
  });

  const detailRoute = {
    method: 'GET',
    ...API_ROUTES['log-templates/:id'],
    params: z.object({ id: decimalU64('id') }),
    query: windowQuery(DAY_SECS, deps.nowMs),
  } as const;
  declareRoute(app, detailRoute, async ({ params: { id: templateId }, query, request }) => {
    const { window } = query;
    const options = readOptions(context, request);
    const row = (await readTemplateRows(deps.store, [templateId], window.nowMs, options)).get(templateId);
    if (row === undefined) throw notFound();
    const key = { service: row.service, templateId };
    const endNs = msToNs(window.endMs);
    const historyFromNs = endNs - BigInt(ALERT_HISTORY_MS) * 1_000_000n;
    const alertsOldestNs = oldestAllowedNs('log_alerts', window.nowMs);
    const rowsRange = nsRange(window, 'template_hits', window.rowsEndMs);
    const [counts, recent, alerts, alerting, silences] = await Promise.all([
      readTemplateHitCounts(deps.store, { ...nsRange(window, 'template_hits'), templateIds: [templateId], nowMs: window.nowMs }, window.bucketSecs, 1, options),
      readRecentHits(deps.store, key, rowsRange.fromNs, rowsRange.toNs, MAX_RECENT_HITS, options),
      readLogAlerts(
        deps.store,
        { fromNs: historyFromNs > alertsOldestNs ? historyFromNs : alertsOldestNs, toNs: endNs, templateId },
        window.endMs,
        window.nowMs,
        MAX_DETAIL_ALERTS,
        options,
      ),
      readAlertingTemplates(deps.store, [templateId], window.endMs, options),
      readSilences(deps.store, [templateId], options),
    ]);
    const withStories = await tracesWithStories(
      deps.store,
      [...new Set(recent.map((h) => h.trace_id).filter((id) => id !== ''))],
      oldestAllowedNs('stories', window.nowMs),
      options,
    );
    return {
      template: {
        template_id: row.template_id,
        service: row.service,
        template: row.template,
        count: row.count,
        first_seen_ns: row.first_seen_ns,
        last_seen_ns: row.last_seen_ns,
        max_severity: row.max_severity,
        alerting: alerting.has(templateId),
      },
      sample: row.sample,
      bucket_secs: window.bucketSecs,
      buckets: counts[0]?.buckets ?? [],
      recent: recent.map((h) => ({ ...h, story_id: withStories.has(h.trace_id) ? h.trace_id : null })),
      alerts,
      silence: silences.get(templateId) ?? null,
    };
  });
}
