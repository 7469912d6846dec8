import { useCallback, useEffect, useMemo, useState } from 'react';
import { apiRoute } from '../../api/client';
import type { TraceLog } from '../../api/types';
import { tracePath } from '../../api/prefetch';
import { useApi } from '../../api/useApi';
import { grafanaTraceLink, traceViewerLink, useConfig } from '../../app/config';
import { Link, setQuery, useQueryParam } from '../../app/router';
import { useQueryField } from '../../lib/useQueryField';
import { useTitle } from '../../app/useTitle';
import { ServiceTag } from '../../components/ServiceTag';
import { Empty, ErrorBox, Loading } from '../../components/Status';
import { Time } from '../../components/Time';
import { formatCountOf, formatDuration } from '../../lib/format';
import { SpanDetails } from './SpanDetails';
import { TraceFind } from './TraceFind';
import { LogList } from './TraceLogs';
import { ancestorIds, buildTree } from './tree';
import { Waterfall } from './Waterfall';

/** One trace: waterfall, the selected span's details, and the trace's logs with their templates. */
export default function TracePage({ params }: { params: Record<string, string> }) {
  const id = params.id;
  useTitle(`Trace ${id.slice(0, 8)}`);
  const { config } = useConfig();
  const selectedId = useQueryParam('span');
  const [find, setFind] = useQueryField('find', 300);
  const { data: trace, error, loading } = useApi(tracePath(id));
  // Templates arrive separately so the waterfall never waits for them.
  const templatesState = useApi(trace === undefined || trace.logs.length === 0 ? null : apiRoute('traces/:traceId/log-templates', { traceId: id }));

  const tree = useMemo(() => (trace === undefined ? null : buildTree(trace.spans)), [trace]);
  const logsBySpan = useMemo(() => {
    const map = new Map<string, TraceLog[]>();
    for (const log of trace?.logs ?? []) {
      if (log.span_id === '') continue;
      const list = map.get(log.span_id);
      if (list === undefined) map.set(log.span_id, [log]);
      else list.push(log);
    }
    return map;
  }, [trace]);
  const templates = useMemo(
    () => (templatesState.data === undefined ? undefined : new Map(templatesState.data.map((t) => [t.log_id, t]))),
    [templatesState.data],
  );

  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const onToggle = useCallback((spanId: string) => {
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(spanId)) next.delete(spanId);
      else next.add(spanId);
      return next;
    });
  }, []);
  // Selecting replaces the history entry: stepping through spans should not flood back/forward.
  const onSelect = useCallback((spanId: string) => setQuery({ span: spanId }, { replace: true }), []);

  // A span opened from a link must be visible even inside a folded subtree.
  useEffect(() => {
    if (tree === null || selectedId === '') return;
    const ancestors = ancestorIds(tree, selectedId);
    setCollapsed((previous) => (ancestors.some((a) => previous.has(a)) ? new Set([...previous].filter((c) => !ancestors.includes(c))) : previous));
  }, [tree, selectedId]);

  if (error !== undefined) {
    return (
      <div className="page">
        <h1>Trace {id}</h1>
        {error.message === 'not found' ? (
          <Empty title="No spans or logs with this trace id.">
            <p>Raw spans and logs are kept 3 days; a trace shows up once the writer has stored it (about a second after export).</p>
          </Empty>
        ) : (
          <ErrorBox error={error} what="the trace" />
        )}
      </div>
    );
  }
  if (loading || trace === undefined || tree === null) return <Loading what="the trace" />;

  const root = tree.rows[0]?.span;
  const selectedSpan = selectedId === '' ? undefined : tree.rows[tree.indexById.get(selectedId) ?? -1]?.span;
  const viewer = traceViewerLink(config.trace_viewer_url, trace.trace_id);
  const grafana = grafanaTraceLink(config.grafana_trace_url, trace.trace_id);

  return (
    <div className="page trace">
      <p className="crumbs">
        <Link to="/traces">Traces</Link> / <span className="mono">{trace.trace_id}</span>
      </p>
      <h1>{root === undefined ? `Trace ${trace.trace_id}` : `${root.service_name} · ${root.span_name}`}</h1>
      <p className="story-meta">
        {tree.rows.length > 0 && (
          <>
            <Time ns={tree.startNs} /> · {formatDuration(tree.endNs - tree.startNs)} · {formatCountOf(tree.rows.length, 'span')} ·{' '}
            {formatCountOf(tree.services.length, 'service')} ·{' '}
          </>
        )}
        <span className={tree.errorCount > 0 ? 'text-error' : undefined}>{formatCountOf(tree.errorCount, 'error span')}</span> ·{' '}
        {formatCountOf(trace.logs.length, 'log')}
      </p>
      <p className="actions">
        {trace.story_id !== null && (
          <Link to={`/stories/${trace.story_id}`} className="button">
            Open its story
          </Link>
        )}
        {viewer !== null && (
          <a href={viewer} className="button secondary" target="_blank" rel="noreferrer">
            Open in the trace viewer
          </a>
        )}
        {grafana !== null && (
          <a href={grafana} className="button secondary" target="_blank" rel="noreferrer">
            Open in Grafana
          </a>
        )}
      </p>
      <p className="legend">
        {tree.services.map((service) => (
          <ServiceTag key={service} service={service} />
        ))}
      </p>
      {tree.rows.length === 0 ? (
        <Empty title="This trace has logs but no spans.">
          <p>Only its logs were received; a trace with logs and no spans produces no story.</p>
        </Empty>
      ) : (
        <>
          <TraceFind tree={tree} find={find} onFind={setFind} selectedId={selectedId} onSelect={onSelect} />
          <div className={`trace-body${selectedSpan === undefined ? '' : ' with-details'}`}>
            <Waterfall
              tree={tree}
              logsBySpan={logsBySpan}
              selectedId={selectedId}
              onSelect={onSelect}
              collapsed={collapsed}
              onToggle={onToggle}
              needle={find.trim().toLowerCase()}
            />
            {selectedSpan !== undefined && (
              <SpanDetails
                span={selectedSpan}
                traceStartNs={tree.startNs}
                logs={logsBySpan.get(selectedSpan.span_id) ?? []}
                templates={templates}
                onClose={() => setQuery({ span: null }, { replace: true })}
              />
            )}
          </div>
        </>
      )}
      <section className="panel" aria-labelledby="trace-logs">
        <h2 id="trace-logs">Logs of the trace</h2>
        {templatesState.error !== undefined && <ErrorBox error={templatesState.error} what="log templates" />}
        {trace.logs.length === 0 ? (
          <p className="muted">No logs carry this trace id.</p>
        ) : (
          <LogList logs={trace.logs} templates={templates} showSpan onSelectSpan={onSelect} />
        )}
      </section>
    </div>
  );
}
