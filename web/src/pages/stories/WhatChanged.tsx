import { incidentsPath } from '../../api/prefetch';
import { useApi } from '../../api/useApi';
import { ErrorBox, Loading } from '../../components/Status';
import { formatLocal, formatUtc } from '../../lib/format';
import { untilMs } from '../../lib/window';
import { incidentWindow } from './incidentWindow';
import { SuspectList } from './SuspectList';
import { TrendGroups } from './TrendGroups';

/**
 * "What changed": the incident analysis of the end of the page's window against the hour before
 * it (/api/v1/incidents): the likeliest suspects with their evidence, then the story groups that
 * are new or rising, the chronic and fading ones folded.
 */
export function WhatChanged({ query, windowQuery }: { query: URLSearchParams; windowQuery: string }) {
  const { data, error, loading } = useApi(incidentsPath(query));
  const { length } = incidentWindow(query.get('since') ?? '');
  const endMs = untilMs(query.get('until') ?? '');
  const covered = endMs === null ? `the last ${length}` : `the ${length} up to ${formatLocal(endMs)}`;
  const exact = data === undefined ? undefined : `${formatUtc(data.window_from_ns / 1e6)} to ${formatUtc(data.window_to_ns / 1e6)}`;
  // The API narrows suspects to the service and what it calls; the groups follow the page's root-cause filter, as the table below does.
  const service = query.get('service') ?? '';
  const groups = data === undefined ? [] : data.groups.filter((group) => service === '' || group.rc_service === service);

  return (
    <section className="panel what-changed" aria-labelledby="what-changed-title">
      <h2 id="what-changed-title">What changed</h2>
      <p className="muted window-note" title={exact}>
        In {covered}, against the hour before{service === '' ? '' : `; suspects: ${service} and what it calls`}.
      </p>
      {error !== undefined && <ErrorBox error={error} what="what changed" />}
      {loading && data === undefined && <Loading what="what changed" />}
      {data !== undefined &&
        (data.suspects.length === 0 ? (
          <p className="calm">Nothing changed beyond the usual in {covered}.</p>
        ) : (
          <>
            <p className="incident-summary">{data.summary}</p>
            <SuspectList suspects={data.suspects} query={query} />
          </>
        ))}
      {data !== undefined && <TrendGroups groups={groups} query={query} windowQuery={windowQuery} />}
    </section>
  );
}
