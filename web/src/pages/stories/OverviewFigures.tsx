import { useMemo } from 'react';
import type { Overview, StoriesSeries } from '../../api/types';
import { Chart } from '../../components/Chart';
import { alignSeries } from '../../lib/series';
import { formatCount, formatRate, formatSeconds } from '../../lib/format';
import { Link } from '../../app/router';
import { dataLagNote } from './dataLag';

/** The overview figures (evaluated at the window end) over the stories chart. */
export function OverviewFigures({
  overview,
  series,
  startMs,
  endMs,
  alertsHref,
}: {
  overview: Overview | undefined;
  series: StoriesSeries | undefined;
  startMs: number;
  endMs: number;
  alertsHref: string;
}) {
  const chart = useMemo(() => {
    if (series === undefined) return null;
    const { xs, values } = alignSeries([series.error, series.slow], startMs / 1000, endMs / 1000, series.bucket_secs, 0);
    return {
      xs,
      stepSecs: series.bucket_secs,
      series: [
        { label: 'Error stories', color: '--error', values: values[0], bars: true, barAlign: -1 as const },
        { label: 'Slow stories', color: '--slow', values: values[1], bars: true, barAlign: 1 as const },
      ],
    };
  }, [series, startMs, endMs]);

  return (
    <section aria-label="Overview" className="overview">
      <dl className="figures">
        <Figure label="Error stories" value={overview === undefined ? '…' : formatCount(overview.error_stories)} tone="error" />
        <Figure label="Slow stories" value={overview === undefined ? '…' : formatCount(overview.slow_stories)} tone="slow" />
        <div className="figure">
          <dt>Active log alerts</dt>
          <dd>{overview === undefined ? '…' : <Link to={alertsHref}>{formatCount(overview.active_alerts)}</Link>}</dd>
        </div>
        <Figure label="Span rate" value={overview === undefined ? '…' : formatRate(overview.spans_per_sec)} />
        <Figure
          label="Data lag"
          value={overview === undefined ? '…' : formatSeconds(overview.data_lag_secs)}
          note={overview === undefined ? undefined : dataLagNote(overview.data_lag_secs)}
          title="The clock minus the time of the newest log the log miner has processed"
        />
      </dl>
      {chart !== null && (
        <Chart
          title="Stories over the window"
          xs={chart.xs}
          series={chart.series}
          height={150}
          format={formatCount}
          yMin={0}
          stepSecs={chart.stepSecs}
          counts
        />
      )}
    </section>
  );
}

function Figure({ label, value, tone, note, title }: { label: string; value: string; tone?: 'error' | 'slow'; note?: string; title?: string }) {
  return (
    <div className={`figure${tone === undefined ? '' : ` tone-${tone}`}`} title={title}>
      <dt>{label}</dt>
      <dd>{value}</dd>
      {note !== undefined && <dd className="figure-note">{note}</dd>}
    </div>
  );
}
