/** Silence settings per template, written by the API's PUT (the newest updated_at_ms wins). */

import type { SilenceSetting } from '../mining/alert-silence.js';
import type { QueryOptions, Store } from '../model/store.js';

/** Stores a template's setting as a new version. */
export async function insertSilence(store: Store, templateId: string, setting: SilenceSetting, updatedAtMs: number): Promise<void> {
  await store.insert(
    'silence_settings',
    ['template_id', 'enabled', 'minutes', 'updated_at_ms'],
    [[BigInt(templateId), setting.enabled, setting.minutes, Math.floor(updatedAtMs)]],
  );
}

interface SilenceRow {
  template_id: string;
  enabled: boolean;
  minutes: number;
}

const NEWEST_SQL = `SELECT toString(template_id) AS template_id, argMax(enabled, updated_at_ms) AS enabled, argMax(minutes, updated_at_ms) AS minutes
  FROM silence_settings`;

/** The newest setting of each given template (all templates when `templateIds` is absent). */
export async function readSilences(store: Store, templateIds?: readonly string[], options: QueryOptions = {}): Promise<Map<string, SilenceSetting>> {
  const rows =
    templateIds === undefined
      ? await store.query<SilenceRow>(`${NEWEST_SQL} GROUP BY template_id`, {}, options)
      : templateIds.length === 0
        ? []
        : await store.query<SilenceRow>(
            `${NEWEST_SQL} WHERE template_id IN {ids:Array(UInt64)} GROUP BY template_id`,
            { ids: templateIds.map((id) => BigInt(id)) },
            options,
          );
  return new Map(rows.map((r) => [r.template_id, { enabled: Boolean(r.enabled), minutes: Number(r.minutes) }]));
}
