import type { Story, StoryLog } from '../../api/types';
import { Link } from '../../app/router';
import { ServiceTag } from '../../components/ServiceTag';
import { Time } from '../../components/Time';
import { formatDuration, severityName } from '../../lib/format';

/** Where the request failed or spent its time. */
export function RootCauseCard({ story }: { story: Story }) {
  const rc = story.root_cause;
  return (
    <section className={`panel rc-card kind-${story.kind}`} aria-labelledby="root-cause">
      <h2 id="root-cause">Root cause</h2>
      <dl className="facts">
        <dt>Service</dt>
        <dd>
          <ServiceTag service={rc.service} />
        </dd>
        <dt>Span</dt>
        <dd>
          <Link to={`/traces/${story.trace_id}?span=${rc.span_id}`}>{rc.span_name}</Link> <span className="muted">({rc.span_kind})</span>
        </dd>
        <dt>Message</dt>
        <dd className="message">{rc.message === '' ? <span className="muted">none recorded</span> : rc.message}</dd>
        {rc.exception_type !== '' && (
          <>
            <dt>Exception</dt>
            <dd className="mono">{rc.exception_type}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** Services from the root span to the root cause. */
export function ServicePath({ story }: { story: Story }) {
  return (
    <section className="panel" aria-labelledby="path">
      <h2 id="path">Path</h2>
      <ol className="service-path">
        {story.path_services.map((service, index) => (
          <li key={`${service}-${index}`}>
            <ServiceTag service={service} />
          </li>
        ))}
      </ol>
      {story.path_spans.length > 0 && (
        <details>
          <summary>{story.path_spans.length} spans on the path</summary>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Span</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody>
              {story.path_spans.map((span) => (
                <tr key={span.span_id}>
                  <td>
                    <ServiceTag service={span.service} />
                  </td>
                  <td>
                    <Link to={`/traces/${story.trace_id}?span=${span.span_id}`}>{span.name}</Link>
                  </td>
                  <td>{span.kind}</td>
                  <td className={span.status === 'error' ? 'text-error' : undefined}>{span.status}</td>
                  <td className="num">{formatDuration(span.duration_ns)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}

/** New, missing and slower operations against the endpoint's baseline. */
export function BaselineDiff({ story }: { story: Story }) {
  const diff = story.baseline_diff;
  return (
    <section className="panel" aria-labelledby="baseline">
      <h2 id="baseline">Against the baseline</h2>
      {diff === null ? (
        <p className="muted">This endpoint has no trusted baseline yet (it needs 50 non-error traces in the last 60 minutes).</p>
      ) : diff.new_ops.length + diff.missing_ops.length + diff.slower_ops.length === 0 ? (
        <p className="muted">Same operations as usual, none slower than the baseline.</p>
      ) : (
        <div className="diff">
          <OpList title="New operations" ops={diff.new_ops} />
          <OpList title="Missing operations" ops={diff.missing_ops} />
          {diff.slower_ops.length > 0 && (
            <div>
              <h3>Slower operations</h3>
              <ul>
                {diff.slower_ops.map((op) => (
                  <li key={op.op}>
                    <span className="mono">{op.op}</span>: {formatDuration(op.duration_ns)}{' '}
                    <span className="muted">against p95 {formatDuration(op.baseline_p95_ns)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

function OpList({ title, ops }: { title: string; ops: string[] }) {
  if (ops.length === 0) return null;
  return (
    <div>
      <h3>{title}</h3>
      <ul>
        {ops.map((op) => (
          <li key={op} className="mono">
            {op}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The story's logs, most severe first (as the API orders them). */
export function StoryLogs({ logs, traceId }: { logs: StoryLog[]; traceId: string }) {
  return (
    <section className="panel" aria-labelledby="story-logs">
      <h2 id="story-logs">Logs</h2>
      {logs.length === 0 ? (
        <p className="muted">No logs were attached to this trace.</p>
      ) : (
        <table className="data logs">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Severity</th>
              <th scope="col">Service</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {logs.map((log, index) => (
              <tr key={index}>
                <td>
                  <Time ns={log.ts_ns} timeOnly />
                </td>
                <td className={log.severity_number >= 17 ? 'text-error' : undefined}>{severityName(log.severity_number, log.severity_text)}</td>
                <td>{log.span_id === '' ? <ServiceTag service={log.service} /> : <Link to={`/traces/${traceId}?span=${log.span_id}`}>{log.service}</Link>}</td>
                <td className="log-body">{log.body}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function field(item: unknown, key: string): string {
  if (item === null || typeof item !== 'object') return '';
  const value = (item as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** Other failing leaf spans; the contract leaves the element shape open, so read fields defensively. */
export function AlsoFailed({ story }: { story: Story }) {
  if (story.also_failed.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="also-failed">
      <h2 id="also-failed">Also failed</h2>
      <ul className="also-failed">
        {story.also_failed.map((item, index) => {
          const spanId = field(item, 'span_id');
          const name = field(item, 'span_name') || field(item, 'name');
          const service = field(item, 'service') || field(item, 'service_name');
          const message = field(item, 'message');
          return (
            <li key={`${spanId}-${index}`}>
              {service !== '' && <ServiceTag service={service} />}{' '}
              {spanId !== '' ? <Link to={`/traces/${story.trace_id}?span=${spanId}`}>{name || spanId}</Link> : <span>{name || JSON.stringify(item)}</span>}
              {message !== '' && <span className="message">: {message}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
