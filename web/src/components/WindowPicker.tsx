import { useId } from 'react';
import { setQuery, useLocation } from '../app/router';
import { SINCE_PRESETS, toLocalInput, toUntilParam, untilMs } from '../lib/window';

/** Picks the page window: `since` (length) and `until` (end, empty = now); both live in the URL. */
export function WindowPicker({ defaultSince }: { defaultSince: string }) {
  const { query } = useLocation();
  const since = query.get('since') ?? '';
  const until = query.get('until') ?? '';
  const sinceId = useId();
  const untilId = useId();
  const presets = SINCE_PRESETS.includes(since) || since === '' ? SINCE_PRESETS : [since, ...SINCE_PRESETS];
  const untilValue = untilMs(until);

  return (
    <div className="window-picker" role="group" aria-label="Time window">
      <label htmlFor={sinceId}>Last</label>
      <select
        id={sinceId}
        value={since === '' ? defaultSince : since}
        onChange={(event) => setQuery({ since: event.target.value === defaultSince ? null : event.target.value })}
      >
        {presets.map((preset) => (
          <option key={preset} value={preset}>
            {preset}
          </option>
        ))}
      </select>
      <label htmlFor={untilId}>until</label>
      <input
        id={untilId}
        type="datetime-local"
        value={untilValue === null ? '' : toLocalInput(untilValue)}
        onChange={(event) => {
          const ms = event.target.value === '' ? NaN : new Date(event.target.value).getTime();
          setQuery({ until: Number.isNaN(ms) ? null : toUntilParam(ms) });
        }}
      />
      {until !== '' && (
        <button type="button" className="link-button" onClick={() => setQuery({ until: null })}>
          now
        </button>
      )}
    </div>
  );
}
