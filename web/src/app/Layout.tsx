import { useState, type FormEvent, type ReactNode } from 'react';
import { apiSend } from '../api/client';
import { withWindow } from '../lib/window';
import { useConfig } from './config';
import { Link, navigate, useLocation } from './router';

const NAV = [
  { to: '/', label: 'Stories', active: (p: string) => p === '/' || p.startsWith('/stories/') },
  { to: '/traces', label: 'Traces', active: (p: string) => p.startsWith('/traces') },
  { to: '/map', label: 'Service map', active: (p: string) => p === '/map' },
  { to: '/logs/alerts', label: 'Logs', active: (p: string) => p.startsWith('/logs') },
  { to: '/pipeline', label: 'Pipeline', active: (p: string) => p === '/pipeline' },
];

/** Header with the page navigation (keeping the window) and a jump-to-trace box. */
export function Layout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { config } = useConfig();
  const [traceId, setTraceId] = useState('');
  const [jumpError, setJumpError] = useState('');

  const jump = (event: FormEvent) => {
    event.preventDefault();
    const id = traceId.trim().toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(id)) {
      setJumpError('A trace id is 32 hexadecimal characters.');
      return;
    }
    setJumpError('');
    setTraceId('');
    navigate(`/traces/${id}`);
  };

  const logout = async () => {
    await apiSend('POST', '/api/v1/auth/logout', {}).catch(() => undefined);
    navigate('/login');
  };

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to={withWindow('/', location.query)} className="brand" aria-label="svc home">
          svc
        </Link>
        <nav aria-label="Pages">
          {NAV.map((item) => (
            <Link key={item.to} to={withWindow(item.to, location.query)} aria-current={item.active(location.pathname) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <form className="jump" onSubmit={jump} role="search">
          <label htmlFor="jump-trace" className="visually-hidden">
            Open a trace by id
          </label>
          <input
            id="jump-trace"
            placeholder="Trace id"
            value={traceId}
            onChange={(event) => setTraceId(event.target.value)}
            aria-invalid={jumpError !== ''}
            aria-describedby={jumpError === '' ? undefined : 'jump-error'}
            spellCheck={false}
          />
          <button type="submit">Open</button>
          {jumpError !== '' && (
            <span id="jump-error" className="field-error" role="alert">
              {jumpError}
            </span>
          )}
        </form>
        {config.auth_enabled && location.pathname !== '/login' && (
          <button type="button" className="link-button" onClick={logout}>
            Sign out
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
