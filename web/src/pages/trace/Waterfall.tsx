import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TraceLog } from '../../api/types';
import { serviceColor } from '../../lib/colors';
import { formatDuration } from '../../lib/format';
import { visibleRows, type Row, type TraceTree } from './tree';

export const ROW_HEIGHT = 26;
const OVERSCAN = 12;

interface Props {
  tree: TraceTree;
  logsBySpan: Map<string, TraceLog[]>;
  selectedId: string;
  onSelect: (spanId: string) => void;
  collapsed: ReadonlySet<string>;
  onToggle: (spanId: string) => void;
  /** Lowercased text of the find box; matching rows are marked. */
  needle?: string;
}

/**
 * The waterfall, virtualised: only the rows in view (plus a margin) are in the DOM, so a 10,000-span
 * trace renders and scrolls like a small one.
 */
export function Waterfall({ tree, logsBySpan, selectedId, onSelect, collapsed, onToggle, needle = '' }: Props) {
  const shown = useMemo(() => visibleRows(tree, collapsed), [tree, collapsed]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(600);
  const frame = useRef(0);

  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setViewHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Bring a linked or keyboard-selected span into view.
  const selectedPosition = shown.indexOf(tree.indexById.get(selectedId) ?? -1);
  useEffect(() => {
    const element = scroller.current;
    if (element === null || selectedPosition < 0) return;
    const top = selectedPosition * ROW_HEIGHT;
    if (top < element.scrollTop || top + ROW_HEIGHT > element.scrollTop + element.clientHeight) {
      element.scrollTop = Math.max(0, top - element.clientHeight / 3);
    }
  }, [selectedPosition]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((scrollTop + viewHeight) / ROW_HEIGHT) + OVERSCAN);
  const total = Math.max(1, tree.endNs - tree.startNs);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const position = Math.max(0, selectedPosition);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const next = shown[Math.min(shown.length - 1, Math.max(0, position + (event.key === 'ArrowDown' ? 1 : -1)))];
      if (next !== undefined) onSelect(tree.rows[next].span.span_id);
      return;
    }
    const row = tree.rows[shown[position]];
    if (row === undefined || row.childCount === 0) return;
    const isCollapsed = collapsed.has(row.span.span_id);
    if ((event.key === 'ArrowLeft' && !isCollapsed) || (event.key === 'ArrowRight' && isCollapsed)) onToggle(row.span.span_id);
  };

  return (
    <div className="waterfall">
      <div className="wf-head" aria-hidden="true">
        <span className="wf-name">Service · span</span>
        <span className="wf-track">
          {[0, 0.25, 0.5, 0.75, 1].map((t) => (
            <span key={t} className="wf-tick" style={{ left: `${t * 100}%` }}>
              {t === 0 ? '0' : formatDuration(total * t)}
            </span>
          ))}
        </span>
        <span className="wf-num">Duration</span>
        <span className="wf-num">Self</span>
      </div>
      <div
        ref={scroller}
        className="wf-scroll"
        role="tree"
        aria-label={`Spans of the trace (${shown.length} shown). Arrow keys move, left and right fold.`}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(event) => {
          const top = event.currentTarget.scrollTop;
          cancelAnimationFrame(frame.current);
          frame.current = requestAnimationFrame(() => setScrollTop(top));
        }}
      >
        <div style={{ height: shown.length * ROW_HEIGHT, position: 'relative' }}>
          {shown.slice(first, last).map((rowIndex, offset) => {
            const row = tree.rows[rowIndex];
            return (
              <WaterfallRow
                key={row.span.span_id}
                row={row}
                top={(first + offset) * ROW_HEIGHT}
                startNs={tree.startNs}
                totalNs={total}
                logs={logsBySpan.get(row.span.span_id)}
                selected={row.span.span_id === selectedId}
                match={needle !== '' && (row.span.service_name.toLowerCase().includes(needle) || row.span.span_name.toLowerCase().includes(needle))}
                collapsed={collapsed.has(row.span.span_id)}
                onSelect={onSelect}
                onToggle={onToggle}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}

const WaterfallRow = memo(function WaterfallRow({
  row,
  top,
  startNs,
  totalNs,
  logs,
  selected,
  match,
  collapsed,
  onSelect,
  onToggle,
}: {
  row: Row;
  top: number;
  startNs: number;
  totalNs: number;
  logs: TraceLog[] | undefined;
  selected: boolean;
  match: boolean;
  collapsed: boolean;
  onSelect: (spanId: string) => void;
  onToggle: (spanId: string) => void;
}) {
  const { span } = row;
  const left = ((span.start_ns - startNs) / totalNs) * 100;
  const width = (span.duration_ns / totalNs) * 100;
  const color = serviceColor(span.service_name);
  return (
    <div
      className={`wf-row${selected ? ' selected' : ''}${row.isError ? ' error' : ''}${match ? ' match' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-selected={selected}
      aria-expanded={row.childCount > 0 ? !collapsed : undefined}
      onClick={() => onSelect(span.span_id)}
    >
      <span className="wf-name" style={{ paddingLeft: Math.min(row.depth, 30) * 12 }}>
        {row.childCount > 0 ? (
          <button
            type="button"
            className="wf-toggle"
            tabIndex={-1}
            aria-label={collapsed ? `Expand ${row.childCount} children` : `Collapse ${row.childCount} children`}
            onClick={(event) => {
              event.stopPropagation();
              onToggle(span.span_id);
            }}
          >
            {collapsed ? '▸' : '▾'}
          </button>
        ) : (
          <span className="wf-toggle" />
        )}
        <span className="swatch" style={{ background: color }} aria-hidden="true" />
        {row.isError && (
          <span className="wf-error-mark" role="img" aria-label="error">
            !
          </span>
        )}
        <span className="wf-service">{span.service_name}</span>
        <span className="wf-span-name" title={span.span_name}>
          {span.span_name}
        </span>
        {logs !== undefined && (
          <span className="wf-logs" title={`${logs.length} logs`}>
            {logs.length} log{logs.length === 1 ? '' : 's'}
          </span>
        )}
        {collapsed && <span className="wf-folded">+{row.descendants}</span>}
      </span>
      <span className="wf-track">
        <span className="wf-bar" style={{ left: `${left}%`, width: `max(1px, ${width}%)`, background: color }} />
        {logs?.map((log) => (
          <span
            key={log.log_id}
            className={`wf-log-tick${log.severity_number >= 17 ? ' severe' : ''}`}
            style={{ left: `${((log.ts_ns - startNs) / totalNs) * 100}%` }}
          />
        ))}
      </span>
      <span className="wf-num">{formatDuration(span.duration_ns)}</span>
      <span className="wf-num muted">{formatDuration(span.self_ns)}</span>
    </div>
  );
});
