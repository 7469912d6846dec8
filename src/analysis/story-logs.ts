/** The logs a story shows: at most 50, most severe first. */
import type { LogRow } from '../model/signals.js';
import type { StoryLog } from './types.js';

export const MAX_STORY_LOGS = 50;

/** Most severe first; within one severity the earliest first, so the story reads in time order. */
export function storyLogs(logs: readonly LogRow[]): StoryLog[] {
  return logs
    .slice()
    .sort((a, b) => {
      if (a.severityNumber !== b.severityNumber) return b.severityNumber - a.severityNumber;
      return a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0;
    })
    .slice(0, MAX_STORY_LOGS)
    .map((log) => ({
      ts_ns: log.tsNs,
      service: log.serviceName,
      span_id: log.spanId,
      severity_number: log.severityNumber,
      severity_text: log.severityText,
      body: log.body,
    }));
}
