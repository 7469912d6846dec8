import { useEffect, useState, type FormEvent } from 'react';
import { apiRoute, sendRoute } from '../../api/client';
import type { SilenceSetting } from '../../api/types';

/** The template's silence setting, saved with PUT; shows what the server stored, or its error. */
export function SilenceForm({
  templateId,
  stored,
  onSaved,
}: {
  templateId: string;
  stored: SilenceSetting | null;
  onSaved: (setting: SilenceSetting) => void;
}) {
  const [enabled, setEnabled] = useState(stored?.enabled ?? false);
  const [minutes, setMinutes] = useState(String(stored?.minutes ?? 30));
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setEnabled(stored?.enabled ?? false);
    setMinutes(String(stored?.minutes ?? 30));
  }, [stored]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = Number(minutes);
    if (!Number.isInteger(value) || value < 1 || value > 1440) {
      setStatus({ tone: 'error', text: 'Minutes must be a whole number from 1 to 1440.' });
      return;
    }
    setSaving(true);
    setStatus(null);
    try {
      const saved = await sendRoute('PUT', apiRoute('log-templates/:id/silence', { id: templateId }), { enabled, minutes: value });
      onSaved(saved);
      setStatus({ tone: 'ok', text: saved.enabled ? `Saved: alert when silent for ${saved.minutes} minutes.` : 'Saved: silence detection is off.' });
    } catch (error) {
      setStatus({ tone: 'error', text: (error as Error).message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="silence-form" onSubmit={(event) => void save(event)} aria-labelledby="silence-heading" noValidate>
      <h2 id="silence-heading">Silence alert</h2>
      <p className="muted">Raise a silence alert when this template, usually steady, stops appearing for a while (judged in the service's log time).</p>
      <span className="field check">
        <input id="silence-enabled" type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        <label htmlFor="silence-enabled">Alert when silent</label>
      </span>
      <span className="field narrow">
        <label htmlFor="silence-minutes">for minutes</label>
        <input id="silence-minutes" type="number" min={1} max={1440} step={1} value={minutes} onChange={(event) => setMinutes(event.target.value)} required />
      </span>
      <button type="submit" disabled={saving}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      <p className="muted">
        {stored === null ? 'Never set.' : `Stored: ${stored.enabled ? `on, ${stored.minutes} minutes` : `off (${stored.minutes} minutes)`}.`}
      </p>
      {status !== null && (
        <p className={status.tone === 'error' ? 'field-error' : 'ok-text'} role={status.tone === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
    </form>
  );
}
