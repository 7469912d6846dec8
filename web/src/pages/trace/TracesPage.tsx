import { apiRoute } from '../../api/client';
import { useApi } from '../../api/useApi';
import { Link, setQuery, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { KindBadge } from '../../components/KindBadge';
import { ServiceInput } from '../../components/ServiceInput';
import { ServiceTag } from '../../components/ServiceTag';
import { Empty, ErrorBox, Loading, SendDataHint } from '../../components/Status';
import { Time } from '../../components/Time';
import { WindowPicker } from '../../components/WindowPicker';
import { formatCount, formatCountOf, formatDuration } from '../../lib/format';
import { useQueryField } from '../../lib/useQueryField';
import { windowBounds } from '../../lib/window';
import { TraceScatter } from './TraceScatter';

const DEFAULT_SINCE = '1h';
// Every filter of /api/v1/traces/search, under the same names in the page URL.
const FILTERS = ['since', 'until', 'service', 'touched', 'endpoint', 'min_ms', 'max_ms', 'errors', 'limit'] as const;

/** Trace explorer: the search form and the newest matching traces. */
export default function TracesPage() {
  useTitle('Traces');
  const { query } = useLocation();
  const params = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? '']));
  const [service, setService] = useQueryField('service');
  const [endpoint, setEndpoint] = useQueryField('endpoint');
  const [minMs, setMinMs] = useQueryField('min_ms');
  const [maxMs, setMaxMs] = useQueryField('max_ms');
  const [limit, setLimit] = useQueryField('limit');
  const { data, error, loading } = useApi(apiRoute('traces/search', params));
  const filtered = FILTERS.some((name) => name !== 'since' && name !== 'until' && name !== 'limit' && params[name] !== '');

  return (
    <div className="page">
      <div className="page-head">
        <h1>Traces</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <form className="filters" aria-label="Trace search" onSubmit={(event) => event.preventDefault()}>
        <ServiceInput label={params.touched === '1' ? 'Service (any span)' : 'Endpoint service'} value={service} onChange={setService} />
        <span className="field check">
          <input id="touched" type="checkbox" checked={params.touched === '1'} onChange={(event) => setQuery({ touched: event.target.checked ? '1' : null })} />
          <label htmlFor="touched">any service in the trace</label>
        </span>
        <span className="field">
          <label htmlFor="endpoint">Endpoint (exact)</label>
          <input
            id="endpoint"
            value={endpoint}
            maxLength={200}
            placeholder="GET /api/orders"
            onChange={(event) => setEndpoint(event.target.value)}
            spellCheck={false}
          />
        </span>
        <span className="field narrow">
          <label htmlFor="min_ms">Min ms</label>
          <input id="min_ms" type="number" min={0} step={1} value={minMs} onChange={(event) => setMinMs(event.target.value)} />
        </span>
        <span className="field narrow">
          <label htmlFor="max_ms">Max ms</label>
          <input id="max_ms" type="number" min={0} step={1} value={maxMs} onChange={(event) => setMaxMs(event.target.value)} />
        </span>
        <span className="field check">
          <input id="errors" type="checkbox" checked={params.errors === '1'} onChange={(event) => setQuery({ errors: event.target.checked ? '1' : null })} />
          <label htmlFor="errors">failing only</label>
        </span>
        <span className="field narrow">
          <label htmlFor="limit">Limit</label>
          <input id="limit" type="number" min={1} max={500} step={1} placeholder="100" value={limit} onChange={(event) => setLimit(event.target.value)} />
        </span>
        {filtered && (
          <button
            type="button"
            className="link-button"
            onClick={() => setQuery({ service: null, touched: null, endpoint: null, min_ms: null, max_ms: null, errors: null })}
          >
            Clear filters
          </button>
        )}
      </form>
      {error !== undefined && <ErrorBox error={error} what="traces" />}
      {loading && data === undefined && <Loading what="traces" />}
      {data !== undefined && data.length === 0 && (
        <Empty title={filtered ? 'No traces match these filters in this window.' : 'No traces in this window.'}>
          {filtered ? <p>Loosen a filter or widen the window.</p> : <SendDataHint />}
        </Empty>
      )}
      {data !== undefined && data.length > 0 && (
        <>
          <TraceScatter rows={data} {...windowBounds(params.since, params.until, DEFAULT_SINCE)} />
          <p className="muted" aria-live="polite">
            {formatCountOf(data.length, 'trace')}, newest first{data.length >= Number(params.limit || 100) ? ' (raise the limit to see more)' : ''}.
          </p>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Start</th>
                <th scope="col">Endpoint</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col" className="num">
                  Spans
                </th>
                <th scope="col">Result</th>
                <th scope="col">Story</th>
              </tr>
            </thead>
            <tbody>
              {data.map((row) => (
                <tr key={row.trace_id}>
                  <td>
                    <Time ns={row.ts_ns} />
                  </td>
                  <td>
                    <ServiceTag service={row.endpoint_service} /> <Link to={`/traces/${row.trace_id}`}>{row.endpoint_name || row.trace_id}</Link>
                  </td>
                  <td className="num">{formatDuration(row.duration_ns)}</td>
                  <td className="num">{formatCount(row.span_count)}</td>
                  <td>{row.is_error ? <span className="badge kind-error">error</span> : <span className="muted">ok</span>}</td>
                  <td>
                    {row.story_id === null ? (
                      <span className="muted">–</span>
                    ) : (
                      <Link to={`/stories/${row.story_id}`}>
                        <KindBadge kind={row.story_kind ?? 'story'} /> story
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
