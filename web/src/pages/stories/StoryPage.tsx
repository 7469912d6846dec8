import { storyPath } from '../../api/prefetch';
import { useApi } from '../../api/useApi';
import { traceViewerLink, useConfig } from '../../app/config';
import { Link, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { KindBadge } from '../../components/KindBadge';
import { ServiceTag } from '../../components/ServiceTag';
import { Empty, ErrorBox, Loading } from '../../components/Status';
import { Time } from '../../components/Time';
import { formatCount, formatDuration } from '../../lib/format';
import { withWindow } from '../../lib/window';
import { CriticalPath } from './CriticalPath';
import { GroupExamples } from './GroupExamples';
import { AlsoFailed, BaselineDiff, RootCauseCard, ServicePath, StoryLogs } from './StoryParts';

/** One story: the sentence first, then why (root cause, path, critical path, baseline, logs). */
export default function StoryPage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const { query } = useLocation();
  const { config } = useConfig();
  const { data: story, error, loading } = useApi(storyPath(id));
  useTitle(story === undefined ? 'Story' : story.summary);

  if (error !== undefined) {
    if (error.message === 'not found')
      return (
        <div className="page">
          <h1>Story not found</h1>
          <Empty title={`There is no story ${id}.`}>
            <p>
              Stories are kept 7 days. The trace may still exist: <Link to={`/traces/${id}`}>open trace {id}</Link>.
            </p>
          </Empty>
        </div>
      );
    return (
      <div className="page">
        <h1>Story</h1>
        <ErrorBox error={error} what="the story" />
      </div>
    );
  }
  if (loading || story === undefined) return <Loading what="the story" />;

  const viewer = traceViewerLink(config.trace_viewer_url, story.trace_id);
  const windowQuery = withWindow('', query);
  return (
    <div className="page story">
      <p className="crumbs">
        <Link to={withWindow(`/?group=${story.fingerprint}`, query)}>Stories</Link> / story
      </p>
      <h1 className="summary-sentence">{story.summary}</h1>
      <p className="story-meta">
        <KindBadge kind={story.kind} />
        {story.flags.map((flag) => (
          <span
            key={flag}
            className="badge flag"
            title={flag === 'incomplete' ? 'A parent span never arrived, several roots, or a cycle was cut' : 'The trace hit a span or memory limit'}
          >
            {flag}
          </span>
        ))}
        <ServiceTag service={story.endpoint_service} /> <span className="mono">{story.endpoint_name}</span> · <Time ns={story.ts_ns} /> ·{' '}
        {formatDuration(story.duration_ns)} · {formatCount(story.span_count)} spans
      </p>
      <p className="actions">
        <Link to={`/traces/${story.trace_id}?span=${story.root_cause.span_id}`} className="button">
          Open the trace
        </Link>
        {viewer !== null && (
          <a href={viewer} className="button secondary" target="_blank" rel="noreferrer">
            Open in the trace viewer
          </a>
        )}
      </p>
      <div className="grid-2">
        <RootCauseCard story={story} />
        <ServicePath story={story} />
      </div>
      <CriticalPath story={story} />
      <BaselineDiff story={story} />
      <AlsoFailed story={story} />
      <StoryLogs logs={story.logs} traceId={story.trace_id} />
      <GroupExamples
        fingerprint={story.fingerprint}
        since={query.get('since') ?? ''}
        until={query.get('until') ?? ''}
        currentStoryId={story.story_id}
        windowQuery={windowQuery}
        heading="Other stories of this group"
      />
    </div>
  );
}
