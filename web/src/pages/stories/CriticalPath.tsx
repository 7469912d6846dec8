import type { Story } from '../../api/types';
import { Link } from '../../app/router';
import { serviceColor } from '../../lib/colors';
import { formatDuration } from '../../lib/format';

const MAX_ROWS = 40;

/** The critical path on the root span's time axis, one row per segment, with the top contributors. */
export function CriticalPath({ story }: { story: Story }) {
  const start = story.ts_ns;
  const total = Math.max(1, story.duration_ns);
  const segments = story.critical_path.segments;
  const shown = segments.slice(0, MAX_ROWS);
  const pct = (ns: number) => `${Math.min(100, Math.max(0, ((ns - start) / total) * 100))}%`;
  const ticks = [0, 0.25, 0.5, 0.75, 1];

  return (
    <section className="panel" aria-labelledby="critical-path">
      <h2 id="critical-path">Critical path</h2>
      {segments.length === 0 ? (
        <p className="muted">No critical path was recorded for this story.</p>
      ) : (
        <div className="cp">
          <div className="cp-axis" aria-hidden="true">
            {ticks.map((t) => (
              <span key={t} style={{ left: `${t * 100}%` }}>
                {t === 0 ? '0' : formatDuration(total * t)}
              </span>
            ))}
          </div>
          <ol className="cp-rows">
            {shown.map((segment, index) => (
              <li key={`${segment.span_id}-${index}`} className="cp-row">
                <span className="cp-label" title={`${segment.service}: ${segment.name}`}>
                  <Link to={`/traces/${story.trace_id}?span=${segment.span_id}`}>
                    {segment.service} · {segment.name}
                  </Link>
                </span>
                <span className="cp-track">
                  <span
                    className="cp-bar"
                    style={{
                      left: pct(segment.start_ns),
                      width: `max(2px, calc(${pct(segment.end_ns)} - ${pct(segment.start_ns)}))`,
                      background: serviceColor(segment.service),
                    }}
                    title={`${formatDuration(segment.end_ns - segment.start_ns)} from ${formatDuration(segment.start_ns - start)}`}
                  />
                </span>
                <span className="cp-dur">{formatDuration(segment.end_ns - segment.start_ns)}</span>
              </li>
            ))}
          </ol>
          {segments.length > MAX_ROWS && <p className="muted">{segments.length - MAX_ROWS} more segments: see the trace.</p>}
        </div>
      )}
      {story.critical_path.top.length > 0 && (
        <>
          <h3>Top contributors (self time on the critical path)</h3>
          <ol className="top-list">
            {story.critical_path.top.map((item) => (
              <li key={item.span_id}>
                <Link to={`/traces/${story.trace_id}?span=${item.span_id}`}>
                  {item.service} · {item.name}
                </Link>{' '}
                <strong>{formatDuration(item.self_time_ns)}</strong>{' '}
                <span className="muted">({Math.round((item.self_time_ns / total) * 100)} % of the request)</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
