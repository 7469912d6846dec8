// The Pipeline page's charts: each component's own metrics, by the names the components register.

export interface SeriesSpec {
  label: string;
  metric: string;
  kind: 'rate' | 'gauge' | 'q50' | 'q99';
  job?: string;
  labels?: string;
  color: string;
}

export interface ChartSpec {
  title: string;
  unit: 'per_sec' | 'seconds' | 'count';
  series: SeriesSpec[];
}

export interface ComponentCharts {
  component: string;
  charts: ChartSpec[];
}

const JOBS = ['svc-ingest', 'svc-writer', 'svc-assembler', 'svc-logminer', 'svc-notifier', 'svc-api'];
const PALETTE = ['--accent', '--ok', '--slow', '--error', '--violet', '--muted'];

export const PIPELINE: ComponentCharts[] = [
  {
    component: 'Scrapes',
    charts: [
      {
        title: 'Targets up (1 = scraped)',
        unit: 'count',
        series: JOBS.map((job, i) => ({ label: job, metric: 'up', kind: 'gauge' as const, job, color: PALETTE[i] })),
      },
    ],
  },
  {
    component: 'Ingest',
    charts: [
      {
        title: 'Items accepted',
        unit: 'per_sec',
        series: [
          { label: 'spans', metric: 'svc_ingest_accepted_items_total', kind: 'rate', labels: 'signal=traces', color: '--accent' },
          { label: 'logs', metric: 'svc_ingest_accepted_items_total', kind: 'rate', labels: 'signal=logs', color: '--ok' },
        ],
      },
      {
        title: 'Records and failures',
        unit: 'per_sec',
        series: [
          { label: 'records published', metric: 'svc_ingest_records_published_total', kind: 'rate', color: '--accent' },
          { label: 'publish failures', metric: 'svc_ingest_publish_failures_total', kind: 'rate', color: '--error' },
          { label: 'rejected requests', metric: 'svc_ingest_rejected_requests_total', kind: 'rate', color: '--slow' },
        ],
      },
      {
        title: 'Export duration',
        unit: 'seconds',
        series: [
          { label: 'p50', metric: 'svc_ingest_export_duration_seconds', kind: 'q50', color: '--ok' },
          { label: 'p99', metric: 'svc_ingest_export_duration_seconds', kind: 'q99', color: '--error' },
        ],
      },
    ],
  },
  {
    component: 'Writer',
    charts: [
      {
        title: 'Rows written and dropped',
        unit: 'per_sec',
        series: [
          { label: 'rows written', metric: 'svc_writer_rows_written_total', kind: 'rate', color: '--accent' },
          { label: 'dropped', metric: 'svc_writer_dropped_items_total', kind: 'rate', color: '--error' },
          { label: 'insert failures', metric: 'svc_writer_insert_failures_total', kind: 'rate', color: '--slow' },
        ],
      },
      {
        title: 'Rows waiting for insert',
        unit: 'count',
        series: [{ label: 'buffered rows', metric: 'svc_writer_buffered_rows', kind: 'gauge', color: '--accent' }],
      },
      {
        title: 'Flush duration',
        unit: 'seconds',
        series: [
          { label: 'p50', metric: 'svc_writer_flush_duration_seconds', kind: 'q50', color: '--ok' },
          { label: 'p99', metric: 'svc_writer_flush_duration_seconds', kind: 'q99', color: '--error' },
        ],
      },
    ],
  },
  {
    component: 'Assembler',
    charts: [
      {
        title: 'Traces closed, stories and late items',
        unit: 'per_sec',
        series: [
          { label: 'traces closed', metric: 'svc_assembler_traces_closed_total', kind: 'rate', color: '--accent' },
          { label: 'stories', metric: 'svc_assembler_stories_total', kind: 'rate', color: '--error' },
          { label: 'late items', metric: 'svc_assembler_late_items_total', kind: 'rate', color: '--slow' },
        ],
      },
      {
        title: 'Open traces and trusted baselines',
        unit: 'count',
        series: [
          { label: 'open traces', metric: 'svc_assembler_open_traces', kind: 'gauge', color: '--accent' },
          { label: 'trusted baselines', metric: 'svc_assembler_trusted_baselines', kind: 'gauge', color: '--ok' },
        ],
      },
      {
        title: 'Analysis duration',
        unit: 'seconds',
        series: [
          { label: 'p50', metric: 'svc_assembler_analysis_duration_seconds', kind: 'q50', color: '--ok' },
          { label: 'p99', metric: 'svc_assembler_analysis_duration_seconds', kind: 'q99', color: '--error' },
        ],
      },
    ],
  },
  {
    component: 'Logminer',
    charts: [
      {
        title: 'Logs mined and spike windows skipped',
        unit: 'per_sec',
        series: [
          { label: 'logs mined', metric: 'svc_logminer_logs_mined_total', kind: 'rate', color: '--accent' },
          { label: 'spike windows skipped', metric: 'svc_logminer_spike_skipped_total', kind: 'rate', color: '--slow' },
        ],
      },
      { title: 'Data lag', unit: 'seconds', series: [{ label: 'data lag', metric: 'svc_logminer_data_lag_seconds', kind: 'gauge', color: '--slow' }] },
      {
        title: 'Templates and alerts',
        unit: 'count',
        series: [
          { label: 'templates', metric: 'svc_logminer_templates', kind: 'gauge', color: '--accent' },
          { label: 'alerts published (per s)', metric: 'svc_logminer_alerts_published_total', kind: 'rate', color: '--error' },
        ],
      },
    ],
  },
  {
    component: 'Notifier',
    charts: [
      {
        title: 'Deliveries',
        unit: 'per_sec',
        series: [
          { label: 'delivered', metric: 'svc_notifier_deliveries_total', kind: 'rate', labels: 'result=delivered', color: '--ok' },
          { label: 'failed', metric: 'svc_notifier_deliveries_total', kind: 'rate', labels: 'result=failed', color: '--error' },
          { label: 'stale', metric: 'svc_notifier_deliveries_total', kind: 'rate', labels: 'result=stale', color: '--slow' },
        ],
      },
      {
        title: 'Open breakers',
        unit: 'count',
        series: [{ label: 'targets with an open breaker', metric: 'svc_notifier_breaker_open', kind: 'gauge', color: '--error' }],
      },
    ],
  },
  {
    component: 'API',
    charts: [
      {
        title: 'Request duration',
        unit: 'seconds',
        series: [
          { label: 'p50', metric: 'svc_api_request_duration_seconds', kind: 'q50', color: '--ok' },
          { label: 'p99', metric: 'svc_api_request_duration_seconds', kind: 'q99', color: '--error' },
        ],
      },
      {
        title: 'Read errors',
        unit: 'per_sec',
        series: [
          { label: 'storage', metric: 'svc_api_repo_errors_total', kind: 'rate', color: '--error' },
          { label: 'broker lag', metric: 'svc_api_lag_errors_total', kind: 'rate', color: '--slow' },
        ],
      },
    ],
  },
];
