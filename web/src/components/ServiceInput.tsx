import { useId } from 'react';
import { apiRoute } from '../api/client';
import { useApi } from '../api/useApi';

/** A free-text service field suggesting the services seen in the last 24 h. */
export function ServiceInput({ value, onChange, label = 'Service', id }: { value: string; onChange: (value: string) => void; label?: string; id?: string }) {
  const generated = useId();
  const inputId = id ?? generated;
  const { data } = useApi(apiRoute('services'));
  return (
    <span className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        list={`${inputId}-list`}
        value={value}
        maxLength={200}
        placeholder="any"
        onChange={(event) => onChange(event.target.value)}
        spellCheck={false}
      />
      <datalist id={`${inputId}-list`}>
        {(data ?? []).map((service) => (
          <option key={service} value={service} />
        ))}
      </datalist>
    </span>
  );
}
