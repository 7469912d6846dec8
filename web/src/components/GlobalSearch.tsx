import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { apiRoute, fetchRoute } from '../api/client';
import { Link, navigate } from '../app/router';
import { KindBadge } from './KindBadge';

interface SearchResult {
  services: string[];
  templates: { template_id: string; service: string; template: string }[];
  groups: { fingerprint: string; kind: string; summary: string; stories: number }[];
  trace_id: string | null;
}

const TRACE_ID = /^[0-9a-fA-F]{32}$/;
const PER_KIND = 6;

/** One box for everything: a trace id opens the trace; other text searches services, templates and story groups. */
export function GlobalSearch() {
  const [q, setQ] = useState('');
  const [result, setResult] = useState<SearchResult | null>(null);
  const [error, setError] = useState('');
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const text = q.trim();
    if (text.length < 2 || TRACE_ID.test(text)) {
      setResult(null);
      setError('');
      return;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      fetchRoute(apiRoute('search', { q: text.slice(0, 200) }), { signal: controller.signal }).then(
        (data) => {
          setResult(data);
          setError('');
        },
        (failure: Error) => {
          if (failure.name !== 'AbortError') setError(failure.message);
        },
      );
    }, 250);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [q]);

  // Close the results when focus or a click leaves the search box.
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (box.current !== null && !box.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, []);

  const done = () => {
    setOpen(false);
    setQ('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = q.trim();
    if (TRACE_ID.test(text)) {
      done();
      navigate(`/traces/${text.toLowerCase()}`);
      return;
    }
    if (result?.trace_id) {
      done();
      navigate(`/traces/${result.trace_id}`);
      return;
    }
    setOpen(true);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') setOpen(false);
  };

  const empty = result !== null && result.services.length + result.templates.length + result.groups.length === 0;
  const showPanel = open && q.trim().length >= 2 && !TRACE_ID.test(q.trim()) && (result !== null || error !== '');

  return (
    <form className="jump" onSubmit={submit} role="search" ref={box} onKeyDown={onKeyDown}>
      <label htmlFor="global-search" className="visually-hidden">
        Search services, log templates and story groups, or open a trace by id
      </label>
      <input
        id="global-search"
        type="search"
        placeholder="Search or trace id"
        value={q}
        autoComplete="off"
        spellCheck={false}
        maxLength={200}
        aria-controls="global-search-results"
        aria-expanded={showPanel}
        onFocus={() => setOpen(true)}
        onChange={(event) => {
          setQ(event.target.value);
          setOpen(true);
        }}
      />
      <button type="submit">Go</button>
      {showPanel && (
        <div id="global-search-results" className="search-results" role="region" aria-label="Search results" aria-live="polite">
          {error !== '' && <p className="field-error">{error}</p>}
          {empty && <p className="muted">Nothing matches “{q.trim()}”. A trace id is 32 hexadecimal characters.</p>}
          <p className="search-logs">
            <Link to={`/logs/explore?q=${encodeURIComponent(q.trim())}`} onClick={done}>
              Search logs for “{q.trim()}”
            </Link>
          </p>
          {result !== null && result.services.length > 0 && (
            <>
              <h2>Services</h2>
              <ul>
                {result.services.slice(0, PER_KIND).map((service) => (
                  <li key={service}>
                    <Link to={`/map?service=${encodeURIComponent(service)}`} onClick={done}>
                      {service}
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
          {result !== null && result.groups.length > 0 && (
            <>
              <h2>Story groups</h2>
              <ul>
                {result.groups.slice(0, PER_KIND).map((group) => (
                  <li key={group.fingerprint}>
                    <Link to={`/?group=${group.fingerprint}`} onClick={done}>
                      <KindBadge kind={group.kind} /> {group.summary} <span className="muted">({group.stories})</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
          {result !== null && result.templates.length > 0 && (
            <>
              <h2>Log templates</h2>
              <ul>
                {result.templates.slice(0, PER_KIND).map((template) => (
                  <li key={template.template_id}>
                    <Link to={`/logs/templates/${template.template_id}`} onClick={done}>
                      <span className="mono">{template.template}</span> <span className="muted">{template.service}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </form>
  );
}
