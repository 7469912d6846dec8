/** whats_wrong: the first question of an incident, answered from the incident analysis, then overview, story groups and alerts. */

import { getRoute } from '../api-caller.js';
import { windowArgs, serviceArg } from '../args.js';
import { clip, fitList, toolAnswer } from '../bound.js';
import { exactValues } from '../exact.js';
import { incidentSince } from '../incident-window.js';
import { defineTool } from '../tool.js';
import { compactSuspect, compactTrendGroup, suspectPlace } from './incident-shapes.js';
import { compactAlert, compactGroup } from './shapes.js';

type Row = Record<string, unknown>;

const GROUPS_SHOWN = 5;
/** Suspects in the answer (the API ranks up to 10): the likeliest few are what an agent acts on. */
const SUSPECTS_SHOWN = 5;

export const whatsWrongTool = defineTool({
  name: 'whats_wrong',
  title: 'What is wrong now',
  description:
    'Start here. First the incident: what changed at the end of the window against the hour before it, as ranked suspects ' +
    '(service, and where known the operation or the caller → callee edge, a 0..100 score, one summary sentence and the 3 strongest pieces of evidence: ' +
    'new or rising story groups, self-time, call-latency and error-rate shifts, log templates appearing, vanishing or changing rate, a service gone silent) ' +
    'and the story groups that are new or rising (chronic and fading ones only counted). The incident covers the window when it is shorter than an hour, ' +
    'otherwise its last 15 minutes. Then, over the whole window (default the last hour): counts of error and slow stories (a story is one failing or unusually slow request, explained), ' +
    'the top error and slow story groups (most stories first), the log alerts active at the window end, spans per second and the data lag in seconds. ' +
    'service narrows the suspects to that service and what it calls (directly or not) and the groups to those whose root cause is in it; the counts cover every service. Next steps: get_story_group with an evidence fingerprint, get_log_template with an evidence template_id, ' +
    "get_service_health for a suspect service, get_story with a group's sample_story_id for its root cause, list_log_alerts for alert details.",
  args: {
    ...windowArgs('1h'),
    service: serviceArg('Only suspects that are this service or what it calls, and story groups whose root cause is in it (exact name).'),
  },
  async run(caller, args) {
    const window = { since: args.since, until: args.until };
    const incidentWindow = { since: incidentSince(args.since), until: args.until };
    // One read after another: with Basic credentials each read is a password check, and parallel checks from one client can meet the limit.
    const incident = await getRoute(caller, 'incidents', { query: { ...incidentWindow, service: args.service } });
    const overview = await getRoute(caller, 'overview', { query: window });
    const errorGroups = await getRoute(caller, 'story-groups', { query: { ...window, kind: 'error', service: args.service } });
    const slowGroups = await getRoute(caller, 'story-groups', { query: { ...window, kind: 'slow', service: args.service } });
    const alerts = (await getRoute(caller, 'log-alerts', { query: window })).filter((alert) => alert.active);

    const suspects = incident.suspects.slice(0, SUSPECTS_SHOWN).map(compactSuspect);
    // The API narrows suspects by service but lists every group; the groups follow the root-cause filter here, as error_groups do.
    const groups = incident.groups.filter((group) => args.service === undefined || group.rc_service === args.service);
    const rising = groups.filter((group) => group.trend === 'new' || group.trend === 'rising');
    const fixed = {
      incident: exactValues({
        since: incidentWindow.since,
        until: args.until ?? 'now',
        window_from_ns: incident.window_from_ns,
        window_to_ns: incident.window_to_ns,
        baseline_from_ns: incident.baseline_from_ns,
        summary: clip(incident.summary, 400),
      }) as Row,
      suspects_total: incident.suspects.length,
      suspects,
      new_or_rising_groups_total: rising.length,
      new_or_rising_groups: rising.slice(0, GROUPS_SHOWN).map(compactTrendGroup),
      chronic_groups_total: groups.filter((group) => group.trend === 'chronic').length,
      fading_groups_total: groups.filter((group) => group.trend === 'fading').length,
      window: { since: args.since ?? '1h', until: args.until ?? 'now' },
      error_stories: overview.error_stories,
      slow_stories: overview.slow_stories,
      active_alerts: overview.active_alerts,
      spans_per_sec: overview.spans_per_sec,
      data_lag_secs: overview.data_lag_secs,
      error_groups_total: errorGroups.length,
      error_groups: errorGroups.slice(0, GROUPS_SHOWN).map(compactGroup),
      slow_groups_total: slowGroups.length,
      slow_groups: slowGroups.slice(0, GROUPS_SHOWN).map(compactGroup),
    };
    const { answer } = fitList(
      alerts.map(compactAlert),
      (shown, truncated) => ({ ...fixed, active_log_alerts_total: alerts.length, active_log_alerts: shown, ...(truncated ? { truncated } : {}) }),
      'active_log_alerts',
      'call list_log_alerts with active_only=true and a service or kind',
    );

    const [first, ...others] = suspects;
    const until = args.until === undefined ? '' : ` to ${String(args.until)}`;
    const lines = [
      `Incident, last ${incidentWindow.since}${until} against the hour before. ${clip(incident.summary, 300)}`,
      ...(first === undefined
        ? []
        : [
            `Likeliest cause: ${suspectPlace(first)} (score ${first.score}), because:`,
            ...first.evidence.map((evidence) => `  - ${evidence.kind}: ${evidence.summary}`),
            ...(others.length === 0
              ? []
              : [`Also suspected: ${others.map((suspect) => `#${suspect.rank} ${suspectPlace(suspect)} (score ${suspect.score})`).join(', ')}`]),
          ]),
      ...rising
        .slice(0, 3)
        .map(
          (group) =>
            `- ${group.trend} ${group.kind} x${group.stories} (${group.baseline_stories} in the hour before): ${clip(group.summary, 160)} (fingerprint ${group.fingerprint})`,
        ),
      `Last ${fixed.window.since}${until}: ${String(overview.error_stories)} error stories in ${errorGroups.length} groups, ` +
        `${String(overview.slow_stories)} slow stories in ${slowGroups.length} groups, ${alerts.length} active log alerts, data lag ${String(overview.data_lag_secs)} s.`,
      ...[...errorGroups.slice(0, 3), ...slowGroups.slice(0, 2)].map(
        (group) => `- ${String(group.kind)} x${String(group.stories)}: ${String(group.summary)} (sample_story_id ${String(group.sample_story_id)})`,
      ),
      ...alerts.slice(0, 3).map((alert) => `- log ${String(alert.kind)} alert in ${String(alert.service)}: ${String(alert.template).slice(0, 120)}`),
    ];
    return toolAnswer(answer, lines.join('\n'));
  },
});
