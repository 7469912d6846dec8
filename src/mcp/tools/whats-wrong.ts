/** whats_wrong: the first question of an incident, answered from overview, story groups and alerts. */

import { getJson } from '../api-caller.js';
import { windowArgs, serviceArg } from '../args.js';
import { fitList, toolAnswer } from '../bound.js';
import { defineTool } from '../tool.js';
import { compactAlert, compactGroup } from './shapes.js';

type Row = Record<string, unknown>;

const GROUPS_SHOWN = 5;

export const whatsWrongTool = defineTool({
  name: 'whats_wrong',
  title: 'What is wrong now',
  description:
    'Start here. Over a window (default the last hour) returns: counts of error and slow stories (a story is one failing or unusually slow request, explained), ' +
    'the top error and slow story groups (stories grouped by root cause and endpoint, most stories first), the log alerts active at the window end, ' +
    'spans per second and the data lag in seconds. The counts cover every service; service narrows only the groups. Next steps: get_story with a group\'s sample_story_id for its root cause, get_story_group for more examples, list_log_alerts for alert details.',
  args: { ...windowArgs('1h'), service: serviceArg('Only story groups whose root cause is in this service (exact name).') },
  async run(caller, args) {
    const window = { since: args.since, until: args.until };
    // One read after another: with Basic credentials each read is a password check, and parallel checks from one client can meet the limit.
    const overview = (await getJson(caller, '/api/v1/overview', window)) as Row;
    const errorGroups = (await getJson(caller, '/api/v1/story-groups', { ...window, kind: 'error', service: args.service })) as Row[];
    const slowGroups = (await getJson(caller, '/api/v1/story-groups', { ...window, kind: 'slow', service: args.service })) as Row[];
    const alerts = ((await getJson(caller, '/api/v1/log-alerts', window)) as Row[]).filter((alert) => alert.active === true);
    const fixed = {
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
    const lines = [
      `Last ${fixed.window.since}${args.until === undefined ? '' : ` to ${String(args.until)}`}: ${String(overview.error_stories)} error stories in ${errorGroups.length} groups, ` +
        `${String(overview.slow_stories)} slow stories in ${slowGroups.length} groups, ${alerts.length} active log alerts, data lag ${String(overview.data_lag_secs)} s.`,
      ...[...errorGroups.slice(0, 3), ...slowGroups.slice(0, 2)].map(
        (group) => `- ${String(group.kind)} x${String(group.stories)}: ${String(group.summary)} (sample_story_id ${String(group.sample_story_id)})`,
      ),
      ...alerts.slice(0, 3).map((alert) => `- log ${String(alert.kind)} alert in ${String(alert.service)}: ${String(alert.template).slice(0, 120)}`),
    ];
    return toolAnswer(answer, lines.join('\n'));
  },
});
