import type { Span, TraceLog, TraceLogTemplate } from '../../api/types';
import { KeyValues } from '../../components/KeyValues';
import { ServiceTag } from '../../components/ServiceTag';
import { Time } from '../../components/Time';
import { formatDuration } from '../../lib/format';
import { LogList } from './TraceLogs';

/** Everything about one span: timing, status, attributes, resource, events and its logs. */
export function SpanDetails({
  span,
  traceStartNs,
  logs,
  templates,
  onClose,
}: {
  span: Span;
  traceStartNs: number;
  logs: TraceLog[];
  templates: Map<string, TraceLogTemplate> | undefined;
  onClose: () => void;
}) {
  return (
    <aside className="span-details panel" aria-labelledby="span-title">
      <div className="details-head">
        <h2 id="span-title">{span.span_name}</h2>
        <button type="button" className="link-button" onClick={onClose} aria-label="Close span details">
          Close
        </button>
      </div>
      <dl className="facts">
        <dt>Service</dt>
        <dd>
          <ServiceTag service={span.service_name} />
        </dd>
        <dt>Kind</dt>
        <dd>{span.kind}</dd>
        <dt>Status</dt>
        <dd className={span.status === 'error' ? 'text-error' : undefined}>
          {span.status}
          {span.status_message !== '' && `: ${span.status_message}`}
        </dd>
        <dt>Start</dt>
        <dd>
          <Time ns={span.start_ns} /> <span className="muted">(+{formatDuration(span.start_ns - traceStartNs)})</span>
        </dd>
        <dt>Duration</dt>
        <dd>
          {formatDuration(span.duration_ns)} <span className="muted">self {formatDuration(span.self_ns)}</span>
        </dd>
        <dt>Span id</dt>
        <dd className="mono">{span.span_id}</dd>
        {span.parent_span_id !== '' && (
          <>
            <dt>Parent</dt>
            <dd className="mono">{span.parent_span_id}</dd>
          </>
        )}
      </dl>
      <KeyValues pairs={span.attrs} caption="Attributes" />
      <KeyValues pairs={span.resource} caption="Resource" />
      <h3>Events</h3>
      {span.events.length === 0 ? (
        <p className="muted">No events.</p>
      ) : (
        <ol className="events">
          {span.events.map((event, index) => (
            <li key={index} className={event.name === 'exception' ? 'text-error' : undefined}>
              <strong>{event.name}</strong> <span className="muted">+{formatDuration(event.ts_ns - span.start_ns)}</span>
              {event.attrs.length > 0 && <KeyValues pairs={event.attrs} caption={`${event.name} attributes`} />}
            </li>
          ))}
        </ol>
      )}
      <h3>Logs of this span</h3>
      {logs.length === 0 ? <p className="muted">No logs carry this span's id.</p> : <LogList logs={logs} templates={templates} showSpan={false} />}
    </aside>
  );
}
