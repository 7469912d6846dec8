import type { LogAlert } from '../../api/types';
import { Link } from '../../app/router';
import { KindBadge } from '../../components/KindBadge';
import { ServiceTag } from '../../components/ServiceTag';
import { Time } from '../../components/Time';
import { alertCounts } from './alertCounts';

/** Log alerts with their template, counts against baseline and example traces (linked to stories). */
export function AlertTable({ alerts, showTemplate = true }: { alerts: LogAlert[]; showTemplate?: boolean }) {
  return (
    <table className="data alerts">
      <thead>
        <tr>
          <th scope="col">Kind</th>
          {showTemplate && <th scope="col">Template</th>}
          <th scope="col">Counts</th>
          <th scope="col">Started</th>
          <th scope="col">Last seen</th>
          <th scope="col">State</th>
          <th scope="col">Example traces</th>
        </tr>
      </thead>
      <tbody>
        {alerts.map((alert) => (
          <tr key={alert.alert_id}>
            <td>
              <KindBadge kind={alert.kind} />
            </td>
            {showTemplate && (
              <td>
                <ServiceTag service={alert.service} />
                <div>
                  <Link to={`/logs/templates/${alert.template_id}`} className="mono">
                    {alert.template}
                  </Link>
                </div>
              </td>
            )}
            <td>{alertCounts(alert)}</td>
            <td>
              <Time ns={alert.started_at_ns} />
            </td>
            <td>
              <Time ns={alert.last_at_ns} />
            </td>
            <td>{alert.active ? <span className="badge active">active</span> : <span className="muted">ended</span>}</td>
            <td>
              {alert.example_traces.length === 0 ? (
                <span className="muted">–</span>
              ) : (
                <ul className="inline-list">
                  {alert.example_traces.map((example) => (
                    <li key={example.trace_id}>
                      {example.story_id !== null ? (
                        <Link to={`/stories/${example.story_id}`} title={`Story of trace ${example.trace_id}`}>
                          story {example.trace_id.slice(0, 8)}
                        </Link>
                      ) : (
                        <Link to={`/traces/${example.trace_id}`} className="mono">
                          trace {example.trace_id.slice(0, 8)}
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
