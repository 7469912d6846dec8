import { useMemo } from 'react';
import { apiRoute } from '../../api/client';
import { useApi } from '../../api/useApi';
import { Link, useLocation } from '../../app/router';
import { useTitle } from '../../app/useTitle';
import { ServiceInput } from '../../components/ServiceInput';
import { ServiceTag } from '../../components/ServiceTag';
import { Sparkline } from '../../components/Sparkline';
import { Empty, ErrorBox, Loading, SendDataHint } from '../../components/Status';
import { Time } from '../../components/Time';
import { WindowPicker } from '../../components/WindowPicker';
import { formatCount, severityName } from '../../lib/format';
import { useQueryField } from '../../lib/useQueryField';
import { windowBounds, withWindow } from '../../lib/window';
import { LogsTabs } from './LogsTabs';

const DEFAULT_SINCE = '1h';

/** Mined log templates with most hits in the window, searchable. */
export default function TemplatesPage() {
  useTitle('Log templates');
  const { query } = useLocation();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  const service = query.get('service') ?? '';
  const q = query.get('q') ?? '';
  const [serviceField, setServiceField] = useQueryField('service');
  const [qField, setQField] = useQueryField('q');
  const { data, error, loading } = useApi(apiRoute('log-templates', { since, until, service, q }));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the reply is a deliberate dependency: the bounds read the clock, so they are taken again when each reply arrives.
  const { startMs, endMs } = useMemo(() => windowBounds(since, until, DEFAULT_SINCE), [since, until, data]);

  return (
    <div className="page">
      <div className="page-head">
        <h1>Logs</h1>
        <WindowPicker defaultSince={DEFAULT_SINCE} />
      </div>
      <LogsTabs />
      <form className="filters" aria-label="Template filters" onSubmit={(event) => event.preventDefault()}>
        <span className="field wide">
          <label htmlFor="template-q">Template contains</label>
          <input
            id="template-q"
            type="search"
            value={qField}
            maxLength={200}
            placeholder="timeout"
            onChange={(event) => setQField(event.target.value)}
            spellCheck={false}
          />
        </span>
        <ServiceInput value={serviceField} onChange={setServiceField} />
      </form>
      {error !== undefined && <ErrorBox error={error} what="log templates" />}
      {loading && data === undefined && <Loading what="log templates" />}
      {data !== undefined && data.length === 0 && (
        <Empty title={q !== '' || service !== '' ? 'No templates match these filters in this window.' : 'No logs mined in this window.'}>
          {q !== '' || service !== '' ? <p>Loosen the search or widen the window.</p> : <SendDataHint />}
        </Empty>
      )}
      {data !== undefined && data.length > 0 && (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Template</th>
              <th scope="col">Service</th>
              <th scope="col">Hits over the window</th>
              <th scope="col" className="num">
                Total
              </th>
              <th scope="col">Severity</th>
              <th scope="col">State</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {data.map((template) => (
              <tr key={template.template_id}>
                <td className="template-cell">
                  <Link to={withWindow(`/logs/templates/${template.template_id}`, query)} className="mono">
                    {template.template}
                  </Link>
                </td>
                <td>
                  <ServiceTag service={template.service} />
                </td>
                <td>
                  <Sparkline
                    buckets={template.buckets}
                    bucketSecs={template.bucket_secs}
                    startMs={startMs}
                    endMs={endMs}
                    label={`Hits of ${template.template}`}
                  />
                </td>
                <td className="num" title="Approximate total since the template was first seen">
                  {formatCount(template.count)}
                </td>
                <td className={template.max_severity >= 17 ? 'text-error' : undefined}>{severityName(template.max_severity)}</td>
                <td>
                  {template.alerting && <span className="badge kind-spike">alerting</span>}{' '}
                  {template.silence_enabled && <span className="badge">silence watch</span>}
                  {!template.alerting && !template.silence_enabled && <span className="muted">quiet</span>}
                </td>
                <td>
                  <Time ns={template.last_seen_ns} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
