import { useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import type { TraceSearchRow } from '../../api/types';
import { navigate } from '../../app/router';
import { formatDuration, formatLocal } from '../../lib/format';

const HEIGHT = 160;
const PAD = 8;

/**
 * The found traces as duration over time (as in Jaeger): one dot per trace, failing ones in the
 * error colour; a dot opens its trace. Drawn in pixels at the measured width, so dots stay round.
 */
export function TraceScatter({ rows, startMs, endMs }: { rows: TraceSearchRow[]; startMs: number; endMs: number }) {
  const holder = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
  useLayoutEffect(() => {
    const element = holder.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(200, element.clientWidth)));
    observer.observe(element);
    setWidth(Math.max(200, element.clientWidth));
    return () => observer.disconnect();
  }, []);
  const spanMs = Math.max(1, endMs - startMs);
  const maxNs = Math.max(1, ...rows.map((row) => row.duration_ns));
  const x = (tsNs: number) => PAD + ((tsNs / 1e6 - startMs) / spanMs) * (width - 2 * PAD);
  const y = (durationNs: number) => HEIGHT - PAD - (durationNs / maxNs) * (HEIGHT - 2 * PAD);
  const open = (event: MouseEvent, traceId: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(`/traces/${traceId}`);
  };
  return (
    <figure className="chart trace-scatter">
      <figcaption>
        Duration over time <span className="muted">(up to {formatDuration(maxNs)}; a dot opens its trace)</span>
      </figcaption>
      <div ref={holder}>
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          className="scatter-plot"
          role="group"
          aria-label="Traces by start time and duration"
        >
          {rows.map((row) => (
            <a
              key={row.trace_id}
              href={`/traces/${row.trace_id}`}
              onClick={(event) => open(event, row.trace_id)}
              className={row.is_error ? 'dot dot-error' : 'dot'}
            >
              <title>{`${row.endpoint_service} ${row.endpoint_name}: ${formatDuration(row.duration_ns)} at ${formatLocal(row.ts_ns / 1e6)}${row.is_error ? ', failed' : ''}`}</title>
              <circle cx={x(row.ts_ns)} cy={y(row.duration_ns)} r={4.5} />
            </a>
          ))}
        </svg>
      </div>
      <div className="histogram-axis muted">
        <span>{formatLocal(startMs)}</span>
        <span>{formatLocal(endMs)}</span>
      </div>
    </figure>
  );
}
