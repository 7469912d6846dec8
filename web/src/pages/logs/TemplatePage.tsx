import { useEffect, useMemo, useState } from 'react';
import { apiRoute } from '../../api/client';
import type { SilenceSetting } from '../../api/types';
import { useApi } from '../../api/useApi';
import { Link, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { Chart } from '../../components/Chart';
import { alignSeries } from '../../lib/series';
import { ServiceTag } from '../../components/ServiceTag';
import { Empty, ErrorBox, Loading } from '../../components/Status';
import { Time } from '../../components/Time';
import { WindowPicker } from '../../components/WindowPicker';
import { formatCount, severityName } from '../../lib/format';
import { windowBounds } from '../../lib/window';
import { AlertTable } from './AlertTable';
import { LogsTabs } from './LogsTabs';
import { exploreTemplatePath } from './explore/exploreQuery';
import { RecentHits } from './RecentHits';
import { SilenceForm } from './SilenceForm';

const DEFAULT_SINCE = '24h';

/** One template: sample, hits over the window, recent hits, its alerts and the silence setting. */
export default function TemplatePage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const { query } = useLocation();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  const { data, error, loading } = useApi(apiRoute('log-templates/:id', { id, since, until }));
  const [silence, setSilence] = useState<SilenceSetting | null>(null);
  useEffect(() => setSilence(data?.silence ?? null), [data]);
  useTitle(data === undefined ? 'Log template' : data.template.template);

  const chart = useMemo(() => {
    if (data === undefined) return null;
    const { startMs, endMs } = windowBounds(since, until, DEFAULT_SINCE);
    const { xs, values } = alignSeries([data.buckets], startMs / 1000, endMs / 1000, data.bucket_secs, 0);
    return { xs, stepSecs: data.bucket_secs, series: [{ label: 'Hits', color: '--accent', values: values[0], bars: true }] };
  }, [data, since, until]);

  return (
    <div className="page">
      <div className="page-head">
        <h1>Logs</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <LogsTabs />
      {error !== undefined &&
        (error.message === 'not found' ? (
          <Empty title={`There is no template ${id}.`}>
            <p>
              Templates are kept 30 days after their last hit. <Link to="/logs/templates">Browse the templates</Link>.
            </p>
          </Empty>
        ) : (
          <ErrorBox error={error} what="the template" />
        ))}
      {loading && data === undefined && <Loading what="the template" />}
      {data !== undefined && (
        <>
          <section className="panel" aria-labelledby="template-text">
            <h2 id="template-text" className="mono template-title">
              {data.template.template}
            </h2>
            <dl className="facts">
              <dt>Service</dt>
              <dd>
                <ServiceTag service={data.template.service} />
              </dd>
              <dt>Hits</dt>
              <dd>{formatCount(data.template.count)} since first seen (approximate)</dd>
              <dt>First seen</dt>
              <dd>
                <Time ns={data.template.first_seen_ns} />
              </dd>
              <dt>Last seen</dt>
              <dd>
                <Time ns={data.template.last_seen_ns} />
              </dd>
              <dt>Max severity</dt>
              <dd>{severityName(data.template.max_severity)}</dd>
              <dt>State</dt>
              <dd>{data.template.alerting ? <span className="badge kind-spike">alerting</span> : 'quiet'}</dd>
              <dt>Sample</dt>
              <dd className="log-body">{data.sample}</dd>
            </dl>
          </section>
          {chart !== null && (
            <Chart
              title="Hits over the window"
              xs={chart.xs}
              series={chart.series}
              format={formatCount}
              yMin={0}
              height={160}
              stepSecs={chart.stepSecs}
              counts
            />
          )}
          <div className="grid-2">
            <section className="panel" aria-labelledby="recent-hits">
              <h2 id="recent-hits">Recent hits</h2>
              <RecentHits
                templateId={id}
                since={since === '' ? DEFAULT_SINCE : since}
                until={until}
                storyOf={new Map(data.recent.map((hit) => [hit.trace_id, hit.story_id]))}
              />
              <p>
                <Link to={exploreTemplatePath(id, new URLSearchParams({ since: since === '' ? DEFAULT_SINCE : since, until }))}>
                  Open all its logs in the explorer
                </Link>
              </p>
            </section>
            <section className="panel">
              <SilenceForm templateId={data.template.template_id} stored={silence} onSaved={setSilence} />
            </section>
          </div>
          <section className="panel" aria-labelledby="template-alerts">
            <h2 id="template-alerts">Alerts (7 days before the window end)</h2>
            {data.alerts.length === 0 ? <p className="muted">This template has not alerted.</p> : <AlertTable alerts={data.alerts} showTemplate={false} />}
          </section>
        </>
      )}
    </div>
  );
}
