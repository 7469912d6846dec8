/**
 * Mines logs into the live templates: each log's template is created or updated in the live
 * state, its minute hit counted, and its hit queued for the flusher. The flusher stores the
 * templates it is told about as rows built here.
 */

import { maskLine, MASKING_VERSION } from '../mining/masking.js';
import type { MineRecord } from '../mining/remine.js';
import { overflowTemplateId } from '../mining/template-id.js';
import type { LogRow } from '../model/signals.js';
import type { TemplateRow } from '../store/templates.js';
import { at } from '../util/at.js';
import type { Flusher } from './flusher.js';
import type { LiveState, LiveTemplate } from './live-state.js';
import type { LogminerMetrics } from './metrics.js';
import type { MiningEngine } from './mining-engine.js';

const MS_PER_MINUTE = 60_000;

export interface TemplateMinerDeps {
  engine: MiningEngine;
  state: LiveState;
  flusher: Flusher;
  metrics: LogminerMetrics;
  nowMs: () => number;
}

/** Returns the miner of a batch of logs; call it one batch at a time (per-service order decides templates and ids). */
export function createTemplateMiner(deps: TemplateMinerDeps): (logs: LogRow[]) => Promise<void> {
  const { engine, state, flusher, metrics } = deps;
  /** Creation order of templates across restarts: this process's start, then a counter. */
  const seqBase = BigInt(deps.nowMs()) * 1_000_000n;
  let seqNext = 0n;

  function newTemplate(log: LogRow, templateId: string, template: string): LiveTemplate {
    const overflow = templateId === overflowTemplateId(log.serviceName);
    return {
      templateId,
      service: log.serviceName,
      template,
      count: 0,
      firstSeenNs: log.tsNs,
      lastSeenNs: log.tsNs,
      maxSeverity: 0,
      // The first line of a new template is the one that created it: its masked tokens are the signature.
      sample: log.body,
      signature: overflow ? template : maskLine(log.body, { keepHttpStatus: engine.options.keepHttpStatus }).tokens.join(' '),
      overflow,
      createdSeq: seqBase + seqNext++,
    };
  }

  return async (logs) => {
    if (logs.length === 0) return;
    const records: MineRecord[] = logs.map((log) => ({
      service: log.serviceName,
      line: log.body,
      timeMs: Number(log.tsNs / 1_000_000n),
      severity: log.severityNumber,
    }));
    const mined = await engine.mine(records);
    const wallMs = deps.nowMs();
    // A batch holds runs of one service's logs (the logs topic is keyed by service): its clock and
    // ownership move once a run, at the run's newest log.
    let runService = at(logs, 0).serviceName;
    let runNewestNs = at(logs, 0).tsNs;
    for (let i = 0; i < logs.length; i++) {
      const log = at(logs, i);
      const { templateId, template } = at(mined, i);
      let t = state.templates.get(templateId);
      if (t === undefined) {
        t = newTemplate(log, templateId, template);
        state.templates.set(templateId, t);
      }
      t.template = template;
      t.count++;
      if (log.tsNs < t.firstSeenNs) t.firstSeenNs = log.tsNs;
      if (log.tsNs > t.lastSeenNs) t.lastSeenNs = log.tsNs;
      if (log.severityNumber > t.maxSeverity) t.maxSeverity = log.severityNumber;
      // minuteOf(log.tsNs) from the milliseconds already divided out (a log's time is never negative).
      const minute = Math.floor(at(records, i).timeMs / MS_PER_MINUTE);
      state.addMinuteHits(templateId, log.serviceName, minute, 1, wallMs);
      if (log.serviceName !== runService) {
        state.advanceClock(runService, runNewestNs);
        state.markMined(runService, wallMs);
        runService = log.serviceName;
        runNewestNs = log.tsNs;
      } else if (log.tsNs > runNewestNs) {
        runNewestNs = log.tsNs;
      }
      flusher.addHit(
        {
          tsNs: log.tsNs,
          templateId,
          service: log.serviceName,
          logId: log.logId,
          traceId: log.traceId,
          spanId: log.spanId,
          severityNumber: log.severityNumber,
        },
        minute,
      );
    }
    state.advanceClock(runService, runNewestNs);
    state.markMined(runService, wallMs);
    metrics.logsMined.inc(logs.length);
    metrics.templates.set(state.templates.size);
  };
}

/** The stored row of the live templates `ids` (those still live), all stamped with one version. */
export function templateRows(state: LiveState, ids: Iterable<string>, updatedAtMs: number): TemplateRow[] {
  const rows: TemplateRow[] = [];
  for (const id of ids) {
    const t = state.templates.get(id);
    if (t !== undefined) rows.push(templateRow(t, updatedAtMs));
  }
  return rows;
}

function templateRow(t: LiveTemplate, updatedAtMs: number): TemplateRow {
  return {
    templateId: t.templateId,
    service: t.service,
    template: t.template,
    count: t.count,
    firstSeenNs: t.firstSeenNs,
    lastSeenNs: t.lastSeenNs,
    maxSeverity: t.maxSeverity,
    sample: t.sample,
    maskingVersion: MASKING_VERSION,
    signature: t.signature,
    overflow: t.overflow,
    createdSeq: t.createdSeq,
    updatedAtMs,
  };
}
