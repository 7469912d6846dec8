/** list_log_alerts, search_log_templates and get_log_template: what the logs say. */

import { z } from 'zod';
import { getRoute } from '../api-caller.js';
import { decimalIdArg, limitArg, serviceArg, windowArgs } from '../args.js';
import { clip, fitList, toolAnswer } from '../bound.js';
import { exactValues } from '../exact.js';
import { defineTool } from '../tool.js';
import { compactAlert, compactTemplate } from './shapes.js';

export const listLogAlertsTool = defineTool({
  name: 'list_log_alerts',
  title: 'List log alerts',
  description:
    'Log alerts overlapping a window (default the last 24 hours), newest last_at first. Kinds: new (a log template never seen before), spike (a template at 5x or more its ' +
    'baseline rate), silence (an expected template stopped). Each has the template, service, counts, active (seen within 10 minutes of the window end) and example traces. ' +
    'Follow with get_log_template or get_story/get_trace on an example.',
  args: {
    ...windowArgs('24h'),
    kind: z.enum(['new', 'spike', 'silence'], { error: 'kind must be new, spike or silence' }).optional().describe('Only alerts of this kind.'),
    service: serviceArg('Only alerts of this service (exact name).'),
    active_only: z.boolean().optional().describe('true: only alerts active at the window end. Default false.'),
    limit: limitArg(200, 20, 'alerts'),
  },
  async run(caller, args) {
    const all = await getRoute(caller, 'log-alerts', { query: { since: args.since, until: args.until, kind: args.kind, service: args.service } });
    const alerts = args.active_only === true ? all.filter((alert) => alert.active === true) : all;
    const compact = alerts.slice(0, args.limit ?? 20).map(compactAlert);
    const { answer, shown } = fitList(
      compact,
      (items, truncated) => ({ total: alerts.length, alerts: items, ...(truncated ? { truncated } : {}) }),
      'alerts',
      'narrow with kind, service, active_only or a shorter since',
    );
    const active = alerts.filter((alert) => alert.active === true).length;
    const lines = [
      `${alerts.length} log alerts (${active} active)${shown < alerts.length ? `; showing ${shown}` : ''}.`,
      ...compact
        .slice(0, 8)
        .map((alert) => `- ${String(alert.kind)}${alert.active === true ? ' (active)' : ''} ${String(alert.service)}: ${clip(alert.template, 120)}`),
    ];
    return toolAnswer(answer, lines.join('\n'));
  },
});

export const searchLogTemplatesTool = defineTool({
  name: 'search_log_templates',
  title: 'Search log templates',
  description:
    'Log templates (log lines with their variable parts masked as <*>) with the most hits in a window (default the last hour): template_id, service, template, hits in the window, ' +
    'total count, first/last seen, highest severity and whether an alert is active on it. Filter by service and by q, a case-insensitive substring of the template. Follow with get_log_template.',
  args: {
    ...windowArgs('1h'),
    service: serviceArg('Only templates of this service (exact name).'),
    q: z
      .string()
      .min(1)
      .max(200, { error: 'q must be at most 200 characters' })
      .optional()
      .describe('Case-insensitive substring the template must contain, e.g. "timeout".'),
    limit: limitArg(200, 20, 'templates'),
  },
  async run(caller, args) {
    const templates = await getRoute(caller, 'log-templates', { query: { since: args.since, until: args.until, service: args.service, q: args.q } });
    const compact = templates.slice(0, args.limit ?? 20).map(compactTemplate);
    const { answer, shown } = fitList(
      compact,
      (items, truncated) => ({ returned: templates.length, templates: items, ...(truncated ? { truncated } : {}) }),
      'templates',
      'narrow with service, q or a shorter since',
    );
    const lines = [
      `${templates.length} templates${shown < templates.length ? `; showing ${shown}` : ''}.`,
      ...compact
        .slice(0, 8)
        .map(
          (t) =>
            `- ${String(t.template_id)} ${String(t.service)} x${String(t.hits_in_window)}${t.alerting === true ? ' ALERTING' : ''}: ${clip(t.template, 120)}`,
        ),
    ];
    return toolAnswer(answer, lines.join('\n'));
  },
});

export const getLogTemplateTool = defineTool({
  name: 'get_log_template',
  title: 'Get a log template',
  description:
    'One log template by template_id with a sample line, hits in the window (default the last 24 hours), its up to 20 most recent hits (time, trace_id, span_id, severity, story_id), ' +
    "its alerts of the 7 days before the window end, and its silence setting. Follow a recent hit's story_id with get_story or its trace_id with get_trace.",
  args: { template_id: decimalIdArg('template_id').describe('The template id: an unsigned 64-bit integer as a decimal string.'), ...windowArgs('24h') },
  async run(caller, args) {
    const detail = await getRoute(caller, 'log-templates/:id', {
      params: { id: args.template_id },
      query: { since: args.since, until: args.until },
      notFoundMessage: `no log template ${args.template_id}`,
    });
    const template = detail.template;
    const alerts = detail.alerts.map(compactAlert);
    const fixed = {
      template: exactValues({ ...template, template: clip(template.template, 500) }),
      sample: clip(detail.sample, 500),
      hits_in_window: detail.buckets.reduce((sum, [, hits]) => sum + Number(hits), 0),
      recent: exactValues(detail.recent),
      silence: detail.silence,
      alerts_total: alerts.length,
    };
    const { answer } = fitList(
      alerts,
      (items, truncated) => ({ ...fixed, alerts: items, ...(truncated ? { truncated } : {}) }),
      'alerts',
      'list_log_alerts with the service and a kind',
    );
    const text = `Template ${args.template_id} of ${String(template.service)}: ${clip(template.template, 200)}. ${fixed.hits_in_window} hits in the window, ${detail.recent.length} recent, ${alerts.length} alerts${template.alerting === true ? ' (alerting)' : ''}.`;
    return toolAnswer(answer, text);
  },
});
