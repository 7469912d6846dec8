import { apiRoute } from '../../api/client';
import { useApi } from '../../api/useApi';
import { setQuery, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { ServiceInput } from '../../components/ServiceInput';
import { Empty, ErrorBox, Loading } from '../../components/Status';
import { WindowPicker } from '../../components/WindowPicker';
import { formatCount, formatCountOf } from '../../lib/format';
import { useQueryField } from '../../lib/useQueryField';
import { AlertTable } from './AlertTable';
import { LogsTabs } from './LogsTabs';

const DEFAULT_SINCE = '24h';

/** Log alerts that overlap the window, newest first. */
export default function AlertsPage() {
  useTitle('Log alerts');
  const { query } = useLocation();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  const kind = query.get('kind') ?? '';
  const service = query.get('service') ?? '';
  const [serviceField, setServiceField] = useQueryField('service');
  const { data, error, loading } = useApi(apiRoute('log-alerts', { since, until, kind, service }));
  const active = (data ?? []).filter((a) => a.active).length;

  return (
    <div className="page">
      <div className="page-head">
        <h1>Logs</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <LogsTabs />
      <form className="filters" aria-label="Alert filters" onSubmit={(event) => event.preventDefault()}>
        <span className="field">
          <label htmlFor="alert-kind">Kind</label>
          <select id="alert-kind" value={kind} onChange={(event) => setQuery({ kind: event.target.value })}>
            <option value="">all kinds</option>
            <option value="new">new</option>
            <option value="spike">spike</option>
            <option value="silence">silence</option>
          </select>
        </span>
        <ServiceInput value={serviceField} onChange={setServiceField} />
      </form>
      {error !== undefined && <ErrorBox error={error} what="log alerts" />}
      {loading && data === undefined && <Loading what="log alerts" />}
      {data !== undefined && data.length === 0 && (
        <Empty title={kind !== '' || service !== '' ? 'No alerts match these filters in this window.' : 'No log alerts in this window.'}>
          <p>
            Alerts are raised when a service logs a line of a new shape, when a template spikes to 5 × its last hour, or when a template with the silence
            setting stops. Send logs to <code>:4317</code> (gRPC) or <code>:4318/v1/logs</code> (HTTP); turn on silence detection on a template's page.
          </p>
        </Empty>
      )}
      {data !== undefined && data.length > 0 && (
        <>
          <p className="muted">
            {formatCountOf(data.length, 'alert')}, {formatCount(active)} active at the window end.
          </p>
          <AlertTable alerts={data} />
        </>
      )}
    </div>
  );
}
