import { useLayoutEffect, useRef, useState } from 'react';
import type { LogSearchRow } from '../../../api/types';
import { Link, useLocation } from '../../../app/router';
import { KeyValues } from '../../../components/KeyValues';
import { ServiceTag } from '../../../components/ServiceTag';
import { Time } from '../../../components/Time';
import { severityName } from '../../../lib/format';
import { withWindow } from '../../../lib/window';
import { exploreTemplatePath } from './exploreQuery';

/** Height of a collapsed row in px (one line); the CSS gives `.log-row` the same height. */
export const ROW_PX = 30;
/** Rows drawn above and below the visible ones, so fast scrolling shows no blank band. */
const OVERSCAN_ROWS = 12;
/** How close to the end (in rows) the next page is asked for. */
const MORE_AHEAD_ROWS = 60;

function severityClass(n: number): string {
  if (n >= 17) return 'sev sev-error';
  if (n >= 13) return 'sev sev-warn';
  return 'sev';
}

/**
 * The result list, virtualized: only the rows in view (plus a margin) are in the DOM, so 10,000 rows
 * scroll as smoothly as 50. One row may be expanded; its measured height shifts the rows below it.
 */
export function LogList({
  rows,
  expanded,
  onToggle,
  onNearEnd,
}: {
  rows: LogSearchRow[];
  expanded: string;
  onToggle: (logId: string) => void;
  onNearEnd: () => void;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  const detail = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewPx, setViewPx] = useState(600);
  const [detailPx, setDetailPx] = useState(0);
  const expandedIndex = expanded === '' ? -1 : rows.findIndex((row) => row.log_id === expanded);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setViewPx(element.clientHeight));
    observer.observe(element);
    setViewPx(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = detail.current;
    if (element === null) {
      setDetailPx(0);
      return;
    }
    const observer = new ResizeObserver(() => setDetailPx(element.offsetHeight));
    observer.observe(element);
    setDetailPx(element.offsetHeight);
    return () => observer.disconnect();
  }, [expandedIndex]);

  const extraPx = expandedIndex < 0 ? 0 : detailPx;
  const topOf = (index: number) => index * ROW_PX + (expandedIndex >= 0 && index > expandedIndex ? extraPx : 0);
  const indexAt = (px: number) => {
    if (expandedIndex < 0 || px < topOf(expandedIndex)) return Math.floor(px / ROW_PX);
    const expandedEndPx = topOf(expandedIndex) + ROW_PX + extraPx;
    if (px < expandedEndPx) return expandedIndex;
    return expandedIndex + 1 + Math.floor((px - expandedEndPx) / ROW_PX);
  };
  const first = Math.max(0, indexAt(scrollTop) - OVERSCAN_ROWS);
  const last = Math.min(rows.length - 1, indexAt(scrollTop + viewPx) + OVERSCAN_ROWS);
  const totalPx = rows.length * ROW_PX + extraPx;

  const visible = [];
  for (let i = first; i <= last; i++) visible.push(i);
  // The expanded row stays mounted while scrolled away, so its height stays known.
  if (expandedIndex >= 0 && (expandedIndex < first || expandedIndex > last)) visible.push(expandedIndex);

  return (
    <div
      ref={viewport}
      className="log-list"
      role="list"
      aria-label="Logs"
      aria-rowcount={rows.length}
      onScroll={(event) => {
        const top = event.currentTarget.scrollTop;
        setScrollTop(top);
        if (indexAt(top + viewPx) >= rows.length - MORE_AHEAD_ROWS) onNearEnd();
      }}
    >
      <div className="log-list-inner" style={{ height: totalPx }}>
        {visible.map((i) => {
          const row = rows[i];
          const open = i === expandedIndex;
          return (
            <div key={row.log_id} className={open ? 'log-item open' : 'log-item'} role="listitem" style={{ top: topOf(i) }} data-log-id={row.log_id}>
              <button type="button" className="log-row" aria-expanded={open} onClick={() => onToggle(row.log_id)}>
                <span className="log-time">
                  <Time ns={row.ts_ns} />
                </span>
                <span className={severityClass(row.severity_number)}>{severityName(row.severity_number, row.severity_text)}</span>
                <span className="log-service">
                  <ServiceTag service={row.service_name} />
                </span>
                <span className="log-text">{row.body}</span>
              </button>
              {open && (
                <div ref={detail}>
                  <LogDetail row={row} />
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** An expanded row: the whole body, its links and its attributes. */
function LogDetail({ row }: { row: LogSearchRow }) {
  const { query } = useLocation();
  return (
    <div className="log-detail">
      <pre className="log-body">{row.body}</pre>
      <ul className="log-links">
        {row.trace_id !== '' && (
          <li>
            <Link to={`/traces/${row.trace_id}`}>Trace {row.trace_id.slice(0, 12)}…</Link>
          </li>
        )}
        {row.trace_id !== '' && row.span_id !== '' && (
          <li>
            <Link to={`/traces/${row.trace_id}?span=${row.span_id}`}>Span {row.span_id}</Link>
          </li>
        )}
        {row.template_id !== null && (
          <li>
            <Link to={withWindow(`/logs/templates/${row.template_id}`, query)}>
              Template: <span className="mono">{row.template ?? row.template_id}</span>
            </Link>
          </li>
        )}
        {row.template_id !== null && (
          <li>
            <Link to={exploreTemplatePath(row.template_id, query)}>All logs of this template</Link>
          </li>
        )}
        {row.trace_id !== '' && (
          <li>
            <Link to={withWindow(`/logs/explore?trace_id=${row.trace_id}`, query)}>All logs of this trace</Link>
          </li>
        )}
      </ul>
      <div className="grid-2">
        <KeyValues pairs={row.attrs} caption="Attributes" />
        <KeyValues pairs={row.resource} caption="Resource attributes" />
      </div>
    </div>
  );
}
