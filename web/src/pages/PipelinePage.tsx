import { useEffect, useMemo, useState } from 'react';
import { apiRoute, fetchRoute } from '../api/client';
import type { PipelineSeries } from '../api/types';
import { useApi } from '../api/useApi';
import { useLocation } from '../app/router';
import { useTitle } from '../app/useTitle';
import { Chart } from '../components/Chart';
import { alignSeries } from '../lib/series';
import { ErrorBox, Loading } from '../components/Status';
import { WindowPicker } from '../components/WindowPicker';
import { formatCount, formatDuration, formatNumber } from '../lib/format';
import { windowBounds } from '../lib/window';
import { PIPELINE, type ChartSpec } from './pipelineCharts';

const DEFAULT_SINCE = '1h';
const LAG_REFRESH_MS = 10_000;

const FORMATS: Record<ChartSpec['unit'], (value: number) => string> = {
  per_sec: (v) => `${formatNumber(v)}/s`,
  seconds: (v) => formatDuration(v * 1e9),
  count: formatNumber,
};

/** The pipeline's own health: every component's recorded metrics and the consumer lag. */
export default function PipelinePage() {
  useTitle('Pipeline');
  const { query } = useLocation();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  // Rates read 0 in buckets before anything was recorded; the scrape gauge `up` is null there, so
  // its first reading is where the recorded data start, and the charts start there too.
  const up = useApi(apiRoute('pipeline/series', { metric: 'up', kind: 'gauge', since, until }));
  const dataStartMs = up.data === undefined ? undefined : recordingStartMs(up.data);
  return (
    <div className="page">
      <div className="page-head">
        <h1>Pipeline</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <LagTable />
      {PIPELINE.map((group) => (
        <section key={group.component} className="panel" aria-labelledby={`pipeline-${group.component}`}>
          <h2 id={`pipeline-${group.component}`}>{group.component}</h2>
          <div className="chart-grid">
            {group.charts.map((chart) => (
              <PipelineChart key={chart.title} spec={chart} since={since} until={until} dataStartMs={dataStartMs} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

/** Unix ms of the first bucket with a scrape reading, or undefined when there is none. */
function recordingStartMs(up: PipelineSeries): number | undefined {
  return up.points.find(([, value]) => value !== null)?.[0];
}

/** One chart of several series, fetched together (one round trip each, in parallel). */
function PipelineChart({ spec, since, until, dataStartMs }: { spec: ChartSpec; since: string; until: string; dataStartMs: number | undefined }) {
  const [result, setResult] = useState<{ series: PipelineSeries[] } | { error: Error } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setResult(null);
    Promise.all(
      spec.series.map((s) =>
        fetchRoute(apiRoute('pipeline/series', { metric: s.metric, kind: s.kind, job: s.job, labels: s.labels, since, until }), { signal: controller.signal }),
      ),
    ).then(
      (series) => setResult({ series }),
      (error: Error) => {
        if (error.name !== 'AbortError') setResult({ error });
      },
    );
    return () => controller.abort();
  }, [spec, since, until]);

  const chart = useMemo(() => {
    if (result === null || 'error' in result) return null;
    const { startMs, endMs } = windowBounds(since, until, DEFAULT_SINCE);
    const step = result.series[0]?.bucket_secs ?? 60;
    // Points are Unix ms (the contract); the x axis is seconds. Missing buckets stay gaps, not zeros.
    const lists = result.series.map((s) => s.points.map(([ms, value]): [number, number | null] => [ms / 1000, value]));
    const fromMs = dataStartMs !== undefined && dataStartMs > startMs ? dataStartMs : startMs;
    const { xs, values } = alignSeries(lists, fromMs / 1000, endMs / 1000, step, null);
    return { xs, series: spec.series.map((s, i) => ({ label: s.label, color: s.color, values: values[i] })) };
  }, [result, spec, since, until, dataStartMs]);

  if (result === null) return <Loading what={spec.title.toLowerCase()} />;
  if ('error' in result) return <ErrorBox error={result.error} what={spec.title.toLowerCase()} />;
  const empty = result.series.every((s) => s.points.every(([, v]) => v === null));
  return (
    <div>
      <Chart title={spec.title} xs={chart!.xs} series={chart!.series} format={FORMATS[spec.unit]} yMin={0} height={150} />
      {empty && <p className="muted small">No samples recorded in this window (the API records every 15 s; check record_secs and metric_targets).</p>}
    </div>
  );
}

/** Consumer lag per group and topic, live from the broker (refreshed while the page is open). */
function LagTable() {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((t) => t + 1), LAG_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  const { data, error, loading } = useApi(apiRoute('pipeline/lag'), tick);
  return (
    <section className="panel" aria-labelledby="lag">
      <h2 id="lag">Consumer lag (live)</h2>
      {error !== undefined && <ErrorBox error={error} what="consumer lag" />}
      {loading && data === undefined && <Loading what="consumer lag" />}
      {data !== undefined && data.length === 0 && <p className="muted">No consumer groups have committed offsets yet.</p>}
      {data !== undefined && data.length > 0 && (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Topic</th>
              <th scope="col" className="num">
                Committed
              </th>
              <th scope="col" className="num">
                End
              </th>
              <th scope="col" className="num">
                Lag
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={`${row.group}/${row.topic}`}>
                <td className="mono">{row.group}</td>
                <td className="mono">{row.topic}</td>
                <td className="num">{formatCount(row.committed)}</td>
                <td className="num">{formatCount(row.end)}</td>
                <td className={`num${row.lag > 10000 ? ' text-error' : ''}`}>{formatCount(row.lag)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
