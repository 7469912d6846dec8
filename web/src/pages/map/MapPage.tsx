import { useMemo } from 'react';
import { apiRoute } from '../../api/client';
import type { ServiceMap } from '../../api/types';
import { useApi } from '../../api/useApi';
import { useConfig } from '../../app/config';
import { setQuery, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { Empty, ErrorBox, Loading, SendDataHint } from '../../components/Status';
import { WindowPicker } from '../../components/WindowPicker';
import { formatCount, formatDuration, formatPercent, formatRate } from '../../lib/format';
import { useQueryField } from '../../lib/useQueryField';
import { filterGraph } from './layout';
import { MapGraph } from './MapGraph';
import { ServicePanel } from './ServicePanel';

const DEFAULT_SINCE = '1h';

/** The service map: who calls whom, with health, and a service's RED charts on selection. */
export default function MapPage() {
  useTitle('Service map');
  const { query } = useLocation();
  const { config } = useConfig();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  const service = query.get('service') ?? '';
  const q = query.get('q') ?? '';
  const showInfra = query.get('infra') === 'true';
  const [qField, setQField] = useQueryField('q');
  const { data, error, loading } = useApi(apiRoute('service-map', { since, until }));

  const hidden = useMemo(() => new Set(showInfra ? [] : config.infra_services), [showInfra, config.infra_services]);
  const graph = useMemo(() => {
    // Older servers answered a plain array of edges; clients read `edges` (contract, Versioning).
    const edges = data === undefined ? [] : Array.isArray(data) ? (data as ServiceMap['edges']) : data.edges;
    const nodes = data === undefined || Array.isArray(data) ? [] : data.nodes;
    return filterGraph(nodes, edges, { hidden, q, service });
  }, [data, hidden, q, service]);

  return (
    <div className="page">
      <div className="page-head">
        <h1>Service map</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <form className="filters" aria-label="Map filters" onSubmit={(event) => event.preventDefault()}>
        <span className="field">
          <label htmlFor="map-q">Find services</label>
          <input
            id="map-q"
            value={qField}
            maxLength={200}
            placeholder="name contains…"
            onChange={(event) => setQField(event.target.value)}
            spellCheck={false}
          />
        </span>
        {service !== '' && (
          <span className="chip">
            Around {service}
            <button type="button" aria-label="Show all services" onClick={() => setQuery({ service: null })}>
              ×
            </button>
          </span>
        )}
        {config.infra_services.length > 0 && (
          <span className="field check">
            <input id="infra" type="checkbox" checked={showInfra} onChange={(event) => setQuery({ infra: event.target.checked ? 'true' : null })} />
            <label htmlFor="infra">show infrastructure ({config.infra_services.join(', ')})</label>
          </span>
        )}
        {config.dashboard_url !== null && (
          <a href={config.dashboard_url} target="_blank" rel="noreferrer" className="button secondary">
            Open the dashboard
          </a>
        )}
      </form>
      <p className="legend" aria-label="Health colours">
        <span className="health-dot health-ok" /> ok <span className="health-dot health-slow" /> slow (above 2 × its 24 h p99){' '}
        <span className="health-dot health-error" /> error (5 % or more failed)
      </p>
      {error !== undefined && <ErrorBox error={error} what="the service map" />}
      {loading && data === undefined && <Loading what="the service map" />}
      {data !== undefined && graph.nodes.length === 0 && graph.edges.length === 0 && (
        <Empty title={q !== '' || service !== '' ? 'No services match these filters.' : 'No service calls in this window.'}>
          {q !== '' || service !== '' ? <p>Clear the filters or widen the window.</p> : <SendDataHint />}
        </Empty>
      )}
      {(graph.nodes.length > 0 || graph.edges.length > 0) && (
        <MapGraph
          nodes={graph.nodes}
          edges={graph.edges}
          matched={graph.matched}
          selected={service}
          onSelect={(name) => setQuery({ service: name === service ? null : name })}
        />
      )}
      {service !== '' && <ServicePanel service={service} since={since} until={until} onClose={() => setQuery({ service: null })} />}
      {graph.nodes.length > 0 && (
        <details className="panel">
          <summary>Services as a table ({graph.nodes.length})</summary>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Health</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col" className="num">
                  Rate
                </th>
                <th scope="col" className="num">
                  Errors
                </th>
                <th scope="col" className="num">
                  p99
                </th>
                <th scope="col" className="num">
                  24 h p99
                </th>
              </tr>
            </thead>
            <tbody>
              {graph.nodes.map((node) => (
                <tr key={node.service}>
                  <td>
                    <button type="button" className="link-button" onClick={() => setQuery({ service: node.service })}>
                      {node.service}
                    </button>
                  </td>
                  <td>
                    <span className={`health-dot health-${node.health}`} /> {node.health}
                  </td>
                  <td className="num">{formatCount(node.calls)}</td>
                  <td className="num">{formatRate(node.rate)}</td>
                  <td className="num">{formatPercent(node.error_ratio)}</td>
                  <td className="num">{formatDuration(node.p99_ns)}</td>
                  <td className="num">{formatDuration(node.baseline_p99_ns)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
