import { useMemo } from 'react';
import { apiRoute } from '../../api/client';
import type { ServiceRed } from '../../api/types';
import { useApi } from '../../api/useApi';
import { Chart } from '../../components/Chart';
import { alignSeries } from '../../lib/series';
import { ErrorBox, Loading } from '../../components/Status';
import { formatCountOf, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { windowBounds } from '../../lib/window';
import { Link } from '../../app/router';

const formatMs = (ms: number) => formatDuration(ms * 1e6);

/** A service's RED series (rate, errors, duration) over its server and consumer spans. */
export function ServicePanel({ service, since, until, onClose }: { service: string; since: string; until: string; onClose: () => void }) {
  const { data, error, loading } = useApi(apiRoute('services/:service', { service, since, until }));
  const charts = useMemo(() => {
    if (data === undefined) return null;
    const { startMs, endMs } = windowBounds(since, until, '1h');
    const pick = (f: (b: ServiceRed['buckets'][number]) => number | null) => data.buckets.map((b): [number, number | null] => [b.bucket, f(b)]);
    const rate = alignSeries([pick((b) => b.rate)], startMs / 1000, endMs / 1000, data.bucket_secs, 0);
    const errors = alignSeries([pick((b) => b.error_ratio * 100)], startMs / 1000, endMs / 1000, data.bucket_secs, 0);
    const latency = alignSeries(
      [pick((b) => b.p50_ns / 1e6), pick((b) => b.p95_ns / 1e6), pick((b) => b.p99_ns / 1e6)],
      startMs / 1000,
      endMs / 1000,
      data.bucket_secs,
      null,
    );
    return {
      rate: { xs: rate.xs, series: [{ label: 'Requests/s', color: '--accent', values: rate.values[0] }] },
      errors: { xs: errors.xs, series: [{ label: 'Error %', color: '--error', values: errors.values[0] }] },
      latency: {
        xs: latency.xs,
        series: [
          { label: 'p50', color: '--ok', values: latency.values[0] },
          { label: 'p95', color: '--slow', values: latency.values[1] },
          { label: 'p99', color: '--error', values: latency.values[2] },
        ],
      },
    };
  }, [data, since, until]);

  return (
    <section className="panel service-panel" aria-labelledby="service-panel">
      <div className="details-head">
        <h2 id="service-panel">{service}</h2>
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="actions">
        <Link to={`/traces?service=${encodeURIComponent(service)}`}>Its traces</Link> ·{' '}
        <Link to={`/?service=${encodeURIComponent(service)}`}>Stories rooted here</Link> ·{' '}
        <Link to={`/logs/templates?service=${encodeURIComponent(service)}`}>Its log templates</Link>
      </p>
      {error !== undefined &&
        (error.message === 'not found' ? (
          <p className="muted">No server or consumer spans from {service} in this window.</p>
        ) : (
          <ErrorBox error={error} what={`${service}'s series`} />
        ))}
      {loading && data === undefined && <Loading what={`${service}'s series`} />}
      {data !== undefined && charts !== null && (
        <>
          <p>
            {formatCountOf(data.calls, 'call')}, {formatCountOf(data.errors, 'error')} ({formatPercent(data.calls === 0 ? 0 : data.errors / data.calls)}) in the
            window.
          </p>
          <div className="chart-grid">
            <Chart title="Rate" xs={charts.rate.xs} series={charts.rate.series} format={formatNumber} yMin={0} height={150} />
            <Chart title="Errors" xs={charts.errors.xs} series={charts.errors.series} format={(v) => `${formatNumber(v)} %`} yMin={0} height={150} />
            <Chart title="Duration" xs={charts.latency.xs} series={charts.latency.series} format={formatMs} yMin={0} height={150} />
          </div>
        </>
      )}
    </section>
  );
}
