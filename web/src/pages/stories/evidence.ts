import type { IncidentEvidence, IncidentEvidenceKind } from '../../api/types';
import { formatDuration, formatNumber } from '../../lib/format.js';

/** What each kind of evidence measures, as the short label in front of its sentence. */
export const EVIDENCE_LABELS: Record<IncidentEvidenceKind, string> = {
  story_group: 'stories',
  self_time: 'self time',
  edge_latency: 'call latency',
  error_rate: 'errors',
  log_template: 'log template',
  traffic: 'traffic',
};

/** One measure in its unit: "12.3 ms", "4.5 %", "30/min". */
export function formatMeasure(value: number, unit: IncidentEvidence['unit']): string {
  if (!Number.isFinite(value)) return '–';
  switch (unit) {
    case 'ms':
      return formatDuration(value * 1e6);
    case 'percent':
      return `${Number(value.toPrecision(3))} %`;
    case 'per_min':
      return `${formatNumber(value)}/min`;
  }
}

/** The hour before against the window: "12 ms → 41 ms". */
export function beforeAfter(evidence: Pick<IncidentEvidence, 'before' | 'after' | 'unit'>): string {
  return `${formatMeasure(evidence.before, evidence.unit)} → ${formatMeasure(evidence.after, evidence.unit)}`;
}
