import { createContext, useContext, type ReactNode } from 'react';
import { apiRoute } from '../api/client';
import { useApi } from '../api/useApi';
import type { AppConfig } from '../api/types';

// Read once per load: the settings behind it are fixed at server start-up.
const fallback: AppConfig = { trace_viewer_url: null, dashboard_url: null, auth_enabled: false, infra_services: [], grafana_trace_url: null };

const ConfigContext = createContext<{ config: AppConfig; loaded: boolean }>({ config: fallback, loaded: false });

export function ConfigProvider({ children }: { children: ReactNode }) {
  const { data } = useApi(apiRoute('config'));
  // Clients must tolerate added fields; missing ones fall back to "feature off".
  const config: AppConfig = data === undefined ? fallback : { ...fallback, ...data, infra_services: data.infra_services ?? [] };
  return <ConfigContext.Provider value={{ config, loaded: data !== undefined }}>{children}</ConfigContext.Provider>;
}

export function useConfig(): { config: AppConfig; loaded: boolean } {
  return useContext(ConfigContext);
}

/** A link into the configured trace viewer, or null when none is configured. */
export function traceViewerLink(base: string | null, traceId: string): string | null {
  if (base === null || base === '') return null;
  return /[/=]$/.test(base) ? `${base}${traceId}` : `${base}/${traceId}`;
}

/** A link opening the trace in Grafana: the configured template with its `{trace_id}` filled in, or null when none is configured. */
export function grafanaTraceLink(template: string | null, traceId: string): string | null {
  if (template === null || template === '') return null;
  return template.replace(/\{trace_id\}|%7Btrace_id%7D/gi, traceId);
}
