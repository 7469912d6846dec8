import { Link, useLocation } from '../../app/router';
import { withWindow } from '../../lib/window';

/** The Logs tabs; switching keeps the window and the service filter. */
export function LogsTabs() {
  const { pathname, query } = useLocation();
  const service = query.get('service');
  const keep = (path: string) => withWindow(service ? `${path}?service=${encodeURIComponent(service)}` : path, query);
  return (
    <nav className="tabs" aria-label="Logs views">
      <Link to={keep('/logs/alerts')} aria-current={pathname === '/logs/alerts' ? 'page' : undefined}>
        Alerts
      </Link>
      <Link to={keep('/logs/templates')} aria-current={pathname.startsWith('/logs/templates') ? 'page' : undefined}>
        Templates
      </Link>
      <Link to={keep('/logs/explore')} aria-current={pathname === '/logs/explore' ? 'page' : undefined}>
        Explore
      </Link>
    </nav>
  );
}
