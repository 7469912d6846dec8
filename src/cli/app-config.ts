import type { AppConfigSettings } from '../api/routes/config.js';
import type { Settings } from '../config/settings.js';

/** What GET /api/v1/config tells the app. */
export function appConfig(settings: Settings): AppConfigSettings {
  return {
    trace_viewer_url: settings.trace_viewer_url,
    grafana_trace_url: settings.grafana_trace_url,
    dashboard_url: settings.dashboard_url,
    auth_enabled: settings.auth.enabled,
    infra_services: settings.map.infra_services,
  };
}
