import type { Pair } from '../api/types';
import { formatLocal } from '../lib/format';

/**
 * A bar sparkline of `[start_unix_s, count]` buckets over the window. Empty buckets are omitted by the
 * API, so bars are placed by time, not by index. All bars are one SVG path: a page of 100 groups
 * would otherwise build 12,000 elements.
 */
export function Sparkline({
  buckets,
  bucketSecs,
  startMs,
  endMs,
  label,
  width = 120,
  height = 24,
  tone = 'accent',
}: {
  buckets: Pair[];
  bucketSecs: number;
  startMs: number;
  endMs: number;
  label: string;
  width?: number;
  height?: number;
  tone?: 'accent' | 'error' | 'slow';
}) {
  const spanMs = Math.max(1, endMs - startMs);
  let max = 0;
  let total = 0;
  let peak = 0;
  for (const [, count] of buckets) {
    max = Math.max(max, count);
    total += count;
  }
  const barWidth = Math.max(1, (bucketSecs * 1000 * width) / spanMs - 0.5);
  let d = '';
  for (const [startS, count] of buckets) {
    if (count === max) peak = startS;
    const x = Math.max(0, ((startS * 1000 - startMs) / spanMs) * width);
    const h = max === 0 ? 0 : Math.max(1, (count / max) * (height - 2));
    d += `M${x.toFixed(1)} ${height}h${barWidth.toFixed(1)}v${(-h).toFixed(1)}h${(-barWidth).toFixed(1)}z`;
  }
  const summary = `${label}: ${total} in the window${max > 0 ? `, at most ${max} per ${Math.round(bucketSecs / 60)} min (${formatLocal(peak * 1000, true)})` : ''}`;
  return (
    <svg className={`sparkline tone-${tone}`} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
      <title>{summary}</title>
      <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="sparkline-axis" />
      <path d={d} />
    </svg>
  );
}
