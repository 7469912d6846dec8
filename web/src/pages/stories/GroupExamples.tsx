import { apiRoute } from '../../api/client';
import { useApi } from '../../api/useApi';
import { Link } from '../../app/router';
import { ErrorBox, Loading } from '../../components/Status';
import { Time } from '../../components/Time';
import { formatCount, formatDuration } from '../../lib/format';

/** A group's stories in the window (newest first), from /api/v1/story-groups/{fingerprint}. */
export function GroupExamples({
  fingerprint,
  since,
  until,
  currentStoryId,
  windowQuery,
  heading,
}: {
  fingerprint: string;
  since: string;
  until: string;
  currentStoryId?: string;
  windowQuery: string;
  heading: string;
}) {
  const { data, error, loading } = useApi(apiRoute('story-groups/:fingerprint', { fingerprint, since, until }));
  return (
    <section className="panel" aria-label={heading}>
      <h2>{heading}</h2>
      {error !== undefined &&
        (error.message === 'not found' ? (
          <p className="muted">This group has no stories in the window; widen the window.</p>
        ) : (
          <ErrorBox error={error} what="the group" />
        ))}
      {loading && data === undefined && <Loading what="the group" />}
      {data !== undefined && (
        <>
          <p className="muted">
            {formatCount(data.group.stories)} {data.group.stories === 1 ? 'story' : 'stories'} in the window, first <Time ns={data.group.first_seen_ns} />, last{' '}
            <Time ns={data.group.last_seen_ns} />.
          </p>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Summary</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col">Trace</th>
              </tr>
            </thead>
            <tbody>
              {data.examples.map((example) => (
                <tr key={example.story_id} aria-current={example.story_id === currentStoryId ? 'true' : undefined}>
                  <td>
                    <Time ns={example.ts_ns} />
                  </td>
                  <td>
                    {example.story_id === currentStoryId ? (
                      <span>{example.summary} (this story)</span>
                    ) : (
                      <Link to={`/stories/${example.story_id}${windowQuery}`}>{example.summary}</Link>
                    )}
                  </td>
                  <td className="num">{formatDuration(example.duration_ns)}</td>
                  <td>
                    <Link to={`/traces/${example.trace_id}`} className="mono">
                      {example.trace_id.slice(0, 12)}…
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
