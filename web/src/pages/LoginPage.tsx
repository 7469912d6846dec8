import { useEffect, useState, type FormEvent } from 'react';
import { apiSend, resetLoginRedirect } from '../api/client';
import { useConfig } from '../app/config';
import { navigate, useQueryParam } from '../app/router';
import { useTitle } from '../app/useTitle';
import { Loading } from '../components/Status';
import { safeNext } from '../lib/next';

/** Sign-in, only with authentication on; otherwise the contract sends the user to `/`. */
export default function LoginPage() {
  useTitle('Sign in');
  const { config, loaded } = useConfig();
  const next = safeNext(useQueryParam('next'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (loaded && !config.auth_enabled) navigate('/', { replace: true });
  }, [loaded, config.auth_enabled]);

  if (!loaded || !config.auth_enabled) return <Loading what="sign-in" />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await apiSend<void>('POST', '/api/v1/auth/login', { username, password });
      resetLoginRedirect();
      navigate(next, { replace: true });
    } catch (failure) {
      const message = (failure as Error).message;
      setError(
        message === 'unauthorized'
          ? 'Wrong username or password.'
          : message === 'too many attempts'
            ? 'Too many attempts: wait a few minutes and try again.'
            : message,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page login">
      <h1>Sign in to svc</h1>
      <form onSubmit={(event) => void submit(event)} className="login-form">
        <span className="field">
          <label htmlFor="username">Username</label>
          <input id="username" autoComplete="username" value={username} onChange={(event) => setUsername(event.target.value)} required autoFocus />
        </span>
        <span className="field">
          <label htmlFor="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
        </span>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error !== '' && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </div>
  );
}
