import { toUntilParam } from '../../../lib/window.js';

/**
 * The window a drag over the histogram selects, as URL `since`/`until`: whole seconds, at least
 * one, the end rounded up so the selected bars stay inside.
 */
export function zoomWindow(fromMs: number, toMs: number): { since: string; until: string } {
  const startMs = Math.min(fromMs, toMs);
  const endMs = Math.ceil(Math.max(fromMs, toMs) / 1000) * 1000;
  const secs = Math.max(1, Math.ceil((endMs - startMs) / 1000));
  return { since: `${secs}s`, until: toUntilParam(endMs) };
}
