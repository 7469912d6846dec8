import type { IncidentEvidence } from '../../api/types';
import { withWindow } from '../../lib/window.js';

/** The Stories page narrowed to one group, keeping the page's window and filters. */
export function groupHref(query: URLSearchParams, fingerprint: string): string {
  const next = new URLSearchParams(query);
  next.set('group', fingerprint);
  return `/?${next.toString()}`;
}

/** The service on the map, in the page's window. */
export function serviceHref(query: URLSearchParams, service: string): string {
  return withWindow(`/map?service=${encodeURIComponent(service)}`, query);
}

/** Where a piece of evidence is shown in full: its story group or its log template; null for measures without a page of their own. */
export function evidenceHref(query: URLSearchParams, evidence: Pick<IncidentEvidence, 'kind' | 'fingerprint' | 'template_id'>): string | null {
  if (evidence.kind === 'story_group' && evidence.fingerprint !== null) return groupHref(query, evidence.fingerprint);
  if (evidence.kind === 'log_template' && evidence.template_id !== null)
    return withWindow(`/logs/templates/${encodeURIComponent(evidence.template_id)}`, query);
  return null;
}
