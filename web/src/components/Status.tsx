import type { ReactNode } from 'react';

/** The API's `{"error": "..."}` message, shown where the data would have been. */
export function ErrorBox({ error, what }: { error: Error; what?: string }) {
  return (
    <div className="error-box" role="alert">
      <strong>{what === undefined ? 'The request failed' : `Could not load ${what}`}:</strong> {error.message}
    </div>
  );
}

/** An empty state that tells the user what to do next. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children !== undefined && <div className="empty-help">{children}</div>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** What to do when nothing has been received yet. */
export function SendDataHint() {
  return (
    <p>
      Send OpenTelemetry traces and logs to <code>:4317</code> (OTLP/gRPC) or <code>:4318</code> (OTLP/HTTP, <code>/v1/traces</code> and <code>/v1/logs</code>),
      or widen the time window.
    </p>
  );
}
