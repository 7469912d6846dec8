import { useState } from 'react';
import type { TraceLog, TraceLogTemplate } from '../../api/types';
import { Link } from '../../app/router';
import { KindBadge } from '../../components/KindBadge';
import { ServiceTag } from '../../components/ServiceTag';
import { Time } from '../../components/Time';
import { severityName } from '../../lib/format';

// The first view of a big trace must stay fast: the rest of its logs render on request.
const FIRST_SHOWN = 50;

/** Logs with their mined template and, when the template alerted around the trace, the alert. */
export function LogList({
  logs,
  templates,
  showSpan,
  onSelectSpan,
}: {
  logs: TraceLog[];
  templates: Map<string, TraceLogTemplate> | undefined;
  showSpan: boolean;
  onSelectSpan?: (spanId: string) => void;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? logs : logs.slice(0, FIRST_SHOWN);
  return (
    <>
      <table className="data logs">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Severity</th>
            {showSpan && <th scope="col">Service</th>}
            <th scope="col">Body and template</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((log) => {
            const template = templates?.get(log.log_id);
            return (
              <tr key={log.log_id}>
                <td>
                  <Time ns={log.ts_ns} timeOnly />
                </td>
                <td className={log.severity_number >= 17 ? 'text-error' : undefined}>{severityName(log.severity_number, log.severity_text)}</td>
                {showSpan && (
                  <td>
                    {log.span_id !== '' && onSelectSpan !== undefined ? (
                      <button type="button" className="link-button" onClick={() => onSelectSpan(log.span_id)} title="Show the span">
                        {log.service_name}
                      </button>
                    ) : (
                      <ServiceTag service={log.service_name} />
                    )}
                  </td>
                )}
                <td>
                  <div className="log-body">{log.body}</div>
                  {template !== undefined && (
                    <div className="log-template">
                      <Link to={`/logs/templates/${template.template_id}`} className="mono" title="Open the template">
                        {template.template}
                      </Link>
                      {template.alert !== null && (
                        <>
                          {' '}
                          <Link to={`/logs/alerts?service=${encodeURIComponent(template.alert.service)}`} title="This template was alerting around this trace">
                            <KindBadge kind={template.alert.kind} /> alert
                          </Link>
                        </>
                      )}
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {!all && logs.length > FIRST_SHOWN && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {logs.length} logs
        </button>
      )}
    </>
  );
}
