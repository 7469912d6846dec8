/** list_story_groups and get_story_group: the grouped failures and one group's examples. */

import { getRoute } from '../api-caller.js';
import { decimalIdArg, limitArg, serviceArg, storyKindArg, windowArgs } from '../args.js';
import { fitList, toolAnswer } from '../bound.js';
import { exactValues, nsToMs } from '../exact.js';
import { defineTool } from '../tool.js';
import { compactGroup } from './shapes.js';

type Row = Record<string, unknown>;

export const listStoryGroupsTool = defineTool({
  name: 'list_story_groups',
  title: 'List story groups',
  description:
    'Story groups in a window (default the last hour), most stories first. A group is every story (failing or slow request) with the same fingerprint: ' +
    "kind, endpoint, root-cause service, root-cause span and masked error message. Each row has the newest story's summary, counts, first/last seen and sample_story_id. " +
    'Filter by kind and by root-cause service. Follow with get_story_group (examples) or get_story (one story).',
  args: {
    ...windowArgs('1h'),
    kind: storyKindArg,
    service: serviceArg('Only groups whose root cause is in this service (exact name).'),
    limit: limitArg(100, 20, 'groups'),
  },
  async run(caller, args) {
    const groups = await getRoute(caller, 'story-groups', { query: { since: args.since, until: args.until, kind: args.kind, service: args.service } });
    const limited = groups.slice(0, args.limit ?? 20).map(compactGroup);
    const { answer, shown } = fitList(
      limited,
      (rows, truncated) => ({ total: groups.length, groups: rows, ...(truncated ? { truncated } : {}) }),
      'groups',
      'narrow with kind or service, or a shorter since',
    );
    const more = groups.length > shown ? ` (showing ${shown}; narrow with kind, service or since)` : '';
    const lines = [
      `${groups.length} story groups${more}.`,
      ...limited.slice(0, 10).map((group) => `- ${String(group.kind)} x${String(group.stories)} fp ${String(group.fingerprint)}: ${String(group.summary)}`),
    ];
    return toolAnswer(answer, lines.join('\n'));
  },
});

export const getStoryGroupTool = defineTool({
  name: 'get_story_group',
  title: 'Get a story group',
  description:
    'One story group by fingerprint (from list_story_groups or whats_wrong) with its example stories in the window (default the last 24 hours), newest first: ' +
    'story_id, time, duration and summary. Use get_story on an example for its root cause, path, critical path and logs.',
  args: {
    fingerprint: decimalIdArg('fingerprint').describe('The group fingerprint: an unsigned 64-bit integer as a decimal string.'),
    ...windowArgs('24h'),
    limit: limitArg(20, 10, 'examples'),
  },
  async run(caller, args) {
    const body = await getRoute(caller, 'story-groups/:fingerprint', {
      params: { fingerprint: args.fingerprint },
      query: { since: args.since, until: args.until },
      notFoundMessage: `no story group with fingerprint ${args.fingerprint} has stories in the window (try a longer since)`,
    });
    const examples = body.examples
      .slice(0, args.limit ?? 10)
      .map(
        (example) =>
          exactValues({ story_id: example.story_id, ts_ns: example.ts_ns, duration_ms: nsToMs(example.duration_ns), summary: example.summary }) as Row,
      );
    const group = compactGroup(body.group);
    const { answer } = fitList(
      examples,
      (rows, truncated) => ({ group, examples: rows, ...(truncated ? { truncated } : {}) }),
      'examples',
      'ask for fewer examples with limit',
    );
    const summary = `${String(group.kind)} group ${String(group.fingerprint)}: ${String(group.stories)} stories, ${String(group.summary)}. ${examples.length} examples; newest ${String(examples[0]?.story_id ?? 'none')}.`;
    return toolAnswer(answer, summary);
  },
});
