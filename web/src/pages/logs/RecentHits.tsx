import { apiRoute } from '../../api/client';
import { useApi } from '../../api/useApi';
import { Link } from '../../app/router';
import { ErrorBox, Loading } from '../../components/Status';
import { Time } from '../../components/Time';
import { severityName } from '../../lib/format';

/** The template's last hits in the window with their log text, read through the log search. */
const RECENT_ROWS = 20;

export function RecentHits({ templateId, since, until, storyOf }: { templateId: string; since: string; until: string; storyOf: Map<string, string | null> }) {
  const { data, error, loading } = useApi(apiRoute('logs/search', { template_id: templateId, since, until, limit: RECENT_ROWS }));
  if (error !== undefined) return <ErrorBox error={error} what="the recent hits" />;
  if (loading && data === undefined) return <Loading what="the recent hits" />;
  if (data === undefined || data.logs.length === 0) return <p className="muted">No hits in this window.</p>;
  return (
    <table className="data recent-hits">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Severity</th>
          <th scope="col">Log</th>
          <th scope="col">Trace</th>
          <th scope="col">Story</th>
        </tr>
      </thead>
      <tbody>
        {data.logs.map((log) => {
          const storyId = storyOf.get(log.trace_id) ?? null;
          return (
            <tr key={log.log_id}>
              <td>
                <Time ns={log.ts_ns} />
              </td>
              <td className={log.severity_number >= 17 ? 'text-error' : undefined}>{severityName(log.severity_number, log.severity_text)}</td>
              <td className="log-body">{log.body}</td>
              <td>
                {log.trace_id === '' ? (
                  <span className="muted">no trace</span>
                ) : (
                  <Link to={`/traces/${log.trace_id}${log.span_id === '' ? '' : `?span=${log.span_id}`}`} className="mono">
                    {log.trace_id.slice(0, 12)}…
                  </Link>
                )}
              </td>
              <td>{storyId === null ? <span className="muted">–</span> : <Link to={`/stories/${storyId}`}>story</Link>}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
