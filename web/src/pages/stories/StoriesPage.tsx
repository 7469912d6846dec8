import { useMemo } from 'react';
import { apiRoute } from '../../api/client';
import { overviewPath, storyGroupsPath } from '../../api/prefetch';
import { useApi } from '../../api/useApi';
import { setQuery, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { ServiceInput } from '../../components/ServiceInput';
import { Empty, ErrorBox, Loading, SendDataHint } from '../../components/Status';
import { WindowPicker } from '../../components/WindowPicker';
import { useQueryField } from '../../lib/useQueryField';
import { windowBounds, withWindow } from '../../lib/window';
import { GroupExamples } from './GroupExamples';
import { GroupTable } from './GroupTable';
import { OverviewFigures } from './OverviewFigures';
import { WhatChanged } from './WhatChanged';

const DEFAULT_SINCE = '1h';

/** Stories: what changed at the window's end, overview figures, the stories chart and the story groups of the window. */
export default function StoriesPage() {
  useTitle('Stories');
  const { query } = useLocation();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  const kind = query.get('kind') ?? '';
  const service = query.get('service') ?? '';
  const group = query.get('group') ?? '';
  const [serviceField, setServiceField] = useQueryField('service');

  const overview = useApi(overviewPath(query));
  const groups = useApi(storyGroupsPath(query));
  // The overview's chart covers all stories; a kind or service filter needs the filtered series.
  const filteredSeries = useApi(kind !== '' || service !== '' ? apiRoute('stories/series', { since, until, kind, service }) : null);
  const series = kind !== '' || service !== '' ? filteredSeries.data : overview.data?.stories;

  // Recomputed per response so the sparklines and chart share the server's window end.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the reply is a deliberate dependency: the bounds read the clock, so they are taken again when each reply arrives.
  const { startMs, endMs } = useMemo(() => windowBounds(since, until, DEFAULT_SINCE), [since, until, groups.data, overview.data]);
  const windowQuery = withWindow('', query);
  const shown = (groups.data ?? []).filter((g) => group === '' || g.fingerprint === group);

  return (
    <div className="page">
      <div className="page-head">
        <h1>Stories</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <WhatChanged query={query} windowQuery={windowQuery} />
      {overview.error !== undefined && <ErrorBox error={overview.error} what="the overview" />}
      {filteredSeries.error !== undefined && <ErrorBox error={filteredSeries.error} what="the stories series" />}
      <OverviewFigures overview={overview.data} series={series} startMs={startMs} endMs={endMs} alertsHref={withWindow('/logs/alerts', query)} />

      <form className="filters" aria-label="Story filters" onSubmit={(event) => event.preventDefault()}>
        <span className="field">
          <label htmlFor="kind">Kind</label>
          <select id="kind" value={kind} onChange={(event) => setQuery({ kind: event.target.value })}>
            <option value="">error and slow</option>
            <option value="error">error</option>
            <option value="slow">slow</option>
          </select>
        </span>
        <ServiceInput label="Root-cause service" value={serviceField} onChange={setServiceField} />
        {group !== '' && (
          <span className="chip">
            Group {group}
            <button type="button" aria-label="Clear the group filter" onClick={() => setQuery({ group: null })}>
              ×
            </button>
          </span>
        )}
      </form>

      {group !== '' && (
        <GroupExamples fingerprint={group} since={since || DEFAULT_SINCE} until={until} windowQuery={windowQuery} heading="Stories of this group" />
      )}

      {groups.error !== undefined && <ErrorBox error={groups.error} what="story groups" />}
      {groups.loading && groups.data === undefined && <Loading what="story groups" />}
      {groups.data !== undefined && shown.length === 0 && (
        <Empty title={kind !== '' || service !== '' || group !== '' ? 'No story groups match these filters in this window.' : 'No stories in this window.'}>
          <p>
            Stories are written when a trace fails, or runs slower than its endpoint's baseline (which needs 50 non-error traces in the last hour). A story
            appears about 10 s after a trace's last span.
          </p>
          <SendDataHint />
        </Empty>
      )}
      {shown.length > 0 && <GroupTable groups={shown} startMs={startMs} endMs={endMs} windowQuery={windowQuery} />}
    </div>
  );
}
