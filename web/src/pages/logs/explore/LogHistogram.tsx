import { useRef, useState, type PointerEvent } from 'react';
import { SEVERITY_LEVELS, type LogSeries, type SeverityLevel } from '../../../api/types';
import { formatCount, formatCountOf, formatLocal } from '../../../lib/format';

/** Severity colours: errors in the error red, warnings in the slow amber, the rest quiet. */
export const LEVEL_COLORS: Record<SeverityLevel, string> = {
  unspecified: 'var(--border)',
  trace: 'var(--grid)',
  debug: 'var(--muted)',
  info: 'var(--accent)',
  warn: 'var(--slow)',
  error: 'var(--error)',
  fatal: 'var(--violet)',
};

const WIDTH = 1000;
const HEIGHT = 110;

/**
 * Logs per bucket stacked by severity over the window; dragging across it selects a shorter window
 * (`onZoom` with Unix ms bounds). Drawn in SVG user units stretched to the width of the page.
 */
export function LogHistogram({
  series,
  startMs,
  endMs,
  onZoom,
}: {
  series: LogSeries;
  startMs: number;
  endMs: number;
  onZoom: (fromMs: number, toMs: number) => void;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const spanMs = Math.max(1, endMs - startMs);
  const buckets = series.info.map(([start]) => start);
  const totals = buckets.map((_, i) => SEVERITY_LEVELS.reduce((sum, level) => sum + (series[level][i]?.[1] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const xOf = (ms: number) => ((ms - startMs) / spanMs) * WIDTH;
  const barWidth = Math.max(1, (series.bucket_secs * 1000 * WIDTH) / spanMs - 1);

  const fraction = (event: PointerEvent) => {
    const box = svg.current?.getBoundingClientRect();
    if (box === undefined || box.width === 0) return 0;
    return Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
  };
  const msAt = (f: number) => startMs + f * spanMs;

  const levelTotals = SEVERITY_LEVELS.map((level) => [level, series[level].reduce((sum, [, n]) => sum + n, 0)] as const).filter(([, n]) => n > 0);

  return (
    <figure className="chart log-histogram">
      <figcaption>
        {formatCountOf(series.total, 'log')} over the window <span className="muted">(drag across the bars to zoom in)</span>
        <span className="legend">
          {levelTotals.map(([level, n]) => (
            <span key={level} className="legend-item">
              <span className="swatch" style={{ background: LEVEL_COLORS[level] }} /> {level} {formatCount(n)}
            </span>
          ))}
        </span>
      </figcaption>
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label="Logs per bucket by severity"
        className="histogram-plot"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          const f = fraction(event);
          setDrag({ from: f, to: f });
        }}
        onPointerMove={(event) => {
          if (drag !== null) setDrag({ ...drag, to: fraction(event) });
        }}
        onPointerUp={(event) => {
          if (drag === null) return;
          const to = fraction(event);
          setDrag(null);
          // A click (no real drag) is not a zoom.
          if (Math.abs(to - drag.from) * (svg.current?.getBoundingClientRect().width ?? 0) >= 4) onZoom(msAt(drag.from), msAt(to));
        }}
        onPointerCancel={() => setDrag(null)}
      >
        {buckets.map((bucket, i) => {
          let y = HEIGHT;
          const x = Math.max(0, xOf(bucket * 1000));
          return SEVERITY_LEVELS.map((level) => {
            const n = series[level][i]?.[1] ?? 0;
            if (n === 0) return null;
            const h = (n / max) * (HEIGHT - 4);
            y -= h;
            return (
              <rect key={`${bucket}-${level}`} x={x} y={y} width={barWidth} height={h} style={{ fill: LEVEL_COLORS[level] }}>
                <title>{`${formatLocal(bucket * 1000)}: ${formatCount(n)} ${level}`}</title>
              </rect>
            );
          });
        })}
        {drag !== null && (
          <rect className="histogram-selection" x={Math.min(drag.from, drag.to) * WIDTH} y={0} width={Math.abs(drag.to - drag.from) * WIDTH} height={HEIGHT} />
        )}
      </svg>
      <div className="histogram-axis muted">
        <span>{formatLocal(startMs)}</span>
        <span>{formatLocal(endMs)}</span>
      </div>
    </figure>
  );
}
