import type { ReactNode } from 'react';
import { GlobalSearch } from '../components/GlobalSearch';
import { apiRoute, apiSend } from '../api/client';
import { useApi } from '../api/useApi';
import { assignServiceColors } from '../lib/colors';
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

/** Header with the page navigation (keeping the window) and the search box. */
export function Layout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { config } = useConfig();
  // The sorted service list hands out the distinct palette colours, so they do not depend on
  // which page named a service first.
  const services = useApi(location.pathname === '/login' ? null : apiRoute('services'));
  if (services.data !== undefined) assignServiceColors(services.data);
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
        <GlobalSearch />
        {config.auth_enabled && location.pathname !== '/login' && (
          <button type="button" className="link-button" onClick={() => void logout()}>
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
