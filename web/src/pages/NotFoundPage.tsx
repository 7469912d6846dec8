import { Link, useLocation } from '../app/router';
import { useTitle } from '../app/useTitle';

/** Unknown client paths get the app, which says so here (old URLs have no redirects). */
export default function NotFoundPage() {
  useTitle('Page not found');
  const { pathname } = useLocation();
  return (
    <div className="page not-found">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <p>
        Go to the <Link to="/">stories</Link>, search <Link to="/traces">traces</Link>, or open the <Link to="/map">service map</Link>.
      </p>
    </div>
  );
}
