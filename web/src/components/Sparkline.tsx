import type { Pair } from '../api/types';
import { formatLocal } from '../lib/format';

/**
 * A bar sparkline of `[start_unix_s, count]` buckets over the window. Empty buckets are omitted by the
 * API, so bars are placed by time, not by index.
 */
export function Sparkline({ buckets, bucketSecs, startMs, endMs, label, width = 120, height = 24, tone = 'accent' }: {
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
  const max = buckets.reduce((m, [, count]) => Math.max(m, count), 0);
  const barWidth = Math.max(1, (bucketSecs * 1000 * width) / spanMs - 0.5);
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  return (
    <svg className={`sparkline tone-${tone}`} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${label}: ${total} in the window`}>
      <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="sparkline-axis" />
      {buckets.map(([startS, count]) => {
        const x = ((startS * 1000 - startMs) / spanMs) * width;
        const h = max === 0 ? 0 : Math.max(1, (count / max) * (height - 2));
        return (
          <rect key={startS} x={Math.max(0, x)} y={height - h} width={barWidth} height={h}>
            <title>{`${formatLocal(startS * 1000)}: ${count}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
