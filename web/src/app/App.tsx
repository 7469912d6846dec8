import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Loading } from '../components/Status';
import { ConfigProvider } from './config';
import { Layout } from './Layout';
import { matchPath, navigate, useLocation } from './router';

// Each page is its own chunk: the first load carries only the shell and the page it opens.
const StoriesPage = lazy(() => import('../pages/stories/StoriesPage'));
const StoryPage = lazy(() => import('../pages/stories/StoryPage'));
const TracesPage = lazy(() => import('../pages/trace/TracesPage'));
const TracePage = lazy(() => import('../pages/trace/TracePage'));
const MapPage = lazy(() => import('../pages/map/MapPage'));
const AlertsPage = lazy(() => import('../pages/logs/AlertsPage'));
const TemplatesPage = lazy(() => import('../pages/logs/TemplatesPage'));
const TemplatePage = lazy(() => import('../pages/logs/TemplatePage'));
const ExplorePage = lazy(() => import('../pages/logs/explore/ExplorePage'));
const PipelinePage = lazy(() => import('../pages/PipelinePage'));
const LoginPage = lazy(() => import('../pages/LoginPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));

type Page = ComponentType<{ params: Record<string, string> }>;

const ROUTES: [string, Page][] = [
  ['/', StoriesPage],
  ['/stories/:id', StoryPage],
  ['/traces', TracesPage],
  ['/traces/:id', TracePage],
  ['/map', MapPage],
  ['/logs/alerts', AlertsPage],
  ['/logs/templates', TemplatesPage],
  ['/logs/templates/:id', TemplatePage],
  ['/logs/explore', ExplorePage],
  ['/pipeline', PipelinePage],
  ['/login', LoginPage],
];

function resolve(pathname: string): { Page: Page; params: Record<string, string> } {
  for (const [pattern, Page] of ROUTES) {
    const params = matchPath(pattern, pathname);
    if (params !== null) return { Page, params };
  }
  return { Page: NotFoundPage, params: {} };
}

/** `/logs` is the alerts tab (the contract); the query (window, filters) comes along. */
function LogsRedirect() {
  const { search } = useLocation();
  useEffect(() => navigate(`/logs/alerts${search}`, { replace: true }), [search]);
  return null;
}

export function App() {
  const { pathname } = useLocation();
  const isLogsRoot = pathname === '/logs' || pathname === '/logs/';
  const { Page, params } = resolve(pathname);
  return (
    <ConfigProvider>
      <Layout>
        <Suspense fallback={<Loading what="page" />}>{isLogsRoot ? <LogsRedirect /> : <Page key={pathname} params={params} />}</Suspense>
      </Layout>
    </ConfigProvider>
  );
}
