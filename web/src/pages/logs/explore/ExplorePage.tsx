import { useEffect, useMemo, useState } from 'react';
import { useApi } from '../../../api/useApi';
import { setQuery, useLocation } from '../../../app/router';
import { useTitle } from '../../../app/useTitle';
import { ServiceInput } from '../../../components/ServiceInput';
import { Empty, ErrorBox, Loading, SendDataHint } from '../../../components/Status';
import { WindowPicker } from '../../../components/WindowPicker';
import { formatCount } from '../../../lib/format';
import { useQueryField } from '../../../lib/useQueryField';
import { windowBounds } from '../../../lib/window';
import { LogsTabs } from '../LogsTabs';
import { filtersOf, MAX_LIST_ROWS, seriesPath } from './exploreQuery';
import { LogHistogram } from './LogHistogram';
import { LogList } from './LogList';
import { useLogPages } from './useLogPages';
import { zoomWindow } from './zoom';

const DEFAULT_SINCE = '1h';
/** How often the live view reloads. */
const LIVE_EVERY_MS = 5_000;
const SEVERITIES = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** Raw logs: a query bar, a severity histogram to zoom with, and the matching rows newest first. */
export default function ExplorePage() {
  useTitle('Explore logs');
  const { query } = useLocation();
  // Expanding a row or the live switch change the URL but not the search.
  const filtersKey = JSON.stringify(filtersOf(query));
  const filters = useMemo(() => JSON.parse(filtersKey) as Record<string, string>, [filtersKey]);
  const live = query.get('live') === '1' && (query.get('until') ?? '') === '';
  const expanded = query.get('log') ?? '';
  const [tick, setTick] = useState(0);
  const [qField, setQField] = useQueryField('q');
  const [serviceField, setServiceField] = useQueryField('service');
  const [templateField, setTemplateField] = useQueryField('template_id');
  const [traceField, setTraceField] = useQueryField('trace_id');

  useEffect(() => {
    if (!live) return;
    const timer = window.setInterval(() => setTick((n) => n + 1), LIVE_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [live]);

  const pages = useLogPages(filters, tick);
  // On a first load the counts are asked for once the first rows are in: the embedded engine answers
  // bound queries one at a time, and the counts of a wide window can take much longer than a page of
  // rows, which should not wait behind them. Later searches keep their rows on screen meanwhile, so
  // they ask for both at once.
  const rowsFirst = pages.loading && pages.rows.length === 0 && pages.error === undefined;
  const series = useApi(rowsFirst ? null : seriesPath(filters), tick);
  // Bounds as the server resolved them when the series arrived (now moves on in between).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the reply is a deliberate dependency: the bounds read the clock, so they are taken again when each reply arrives.
  const { startMs, endMs } = useMemo(() => windowBounds(filters.since ?? '', filters.until ?? '', DEFAULT_SINCE), [filters, series.data]);
  const filtered = Object.keys(filters).some((key) => key !== 'since' && key !== 'until');

  return (
    <div className="page explore">
      <div className="page-head">
        <h1>Logs</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <LogsTabs />
      <form className="filters" aria-label="Log search" onSubmit={(event) => event.preventDefault()}>
        <span className="field wide">
          <label htmlFor="explore-q">Text (every word)</label>
          <input
            id="explore-q"
            type="search"
            value={qField}
            maxLength={200}
            placeholder="timeout order"
            onChange={(event) => setQField(event.target.value)}
            spellCheck={false}
          />
        </span>
        <ServiceInput value={serviceField} onChange={setServiceField} id="explore-service" />
        <span className="field">
          <label htmlFor="explore-severity">Severity at least</label>
          <select id="explore-severity" value={query.get('severity') ?? ''} onChange={(event) => setQuery({ severity: event.target.value })}>
            <option value="">any</option>
            {SEVERITIES.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
        </span>
        <span className="field">
          <label htmlFor="explore-template">Template id</label>
          <input
            id="explore-template"
            value={templateField}
            maxLength={20}
            placeholder="any"
            onChange={(event) => setTemplateField(event.target.value)}
            spellCheck={false}
          />
        </span>
        <span className="field">
          <label htmlFor="explore-trace">Trace id</label>
          <input
            id="explore-trace"
            className="mono"
            value={traceField}
            maxLength={32}
            placeholder="any"
            onChange={(event) => setTraceField(event.target.value)}
            spellCheck={false}
          />
        </span>
        <span className="field check">
          <input
            id="explore-live"
            type="checkbox"
            checked={live}
            onChange={(event) => setQuery({ live: event.target.checked ? '1' : null, until: event.target.checked ? null : query.get('until') })}
          />
          <label htmlFor="explore-live">Live</label>
        </span>
      </form>
      {series.error !== undefined && <ErrorBox error={series.error} what="the log counts" />}
      {series.data !== undefined && (
        <LogHistogram series={series.data} startMs={startMs} endMs={endMs} onZoom={(fromMs, toMs) => setQuery({ ...zoomWindow(fromMs, toMs), live: null })} />
      )}
      {pages.error !== undefined && <ErrorBox error={pages.error} what="logs" />}
      {pages.loading && pages.rows.length === 0 && pages.error === undefined && <Loading what="logs" />}
      {!pages.loading && pages.error === undefined && pages.rows.length === 0 && (
        <Empty title={filtered ? 'No logs match this search in this window.' : 'No logs in this window.'}>
          {filtered ? <p>Remove a filter or widen the window.</p> : <SendDataHint />}
        </Empty>
      )}
      {pages.rows.length > 0 && (
        <>
          <p className="list-status muted" role="status">
            {formatCount(pages.rows.length)} newest {pages.rows.length === 1 ? 'log' : 'logs'} shown
            {pages.more ? ', more load as you scroll' : ''}
            {pages.capped ? `; the list stops at ${formatCount(MAX_LIST_ROWS)}: narrow the search or the window` : ''}
            {live ? '; live, reloading every 5 s' : ''}
          </p>
          <LogList
            rows={pages.rows}
            expanded={expanded}
            onToggle={(logId) => setQuery({ log: logId === expanded ? null : logId }, { replace: true })}
            onNearEnd={pages.loadMore}
          />
        </>
      )}
    </div>
  );
}
