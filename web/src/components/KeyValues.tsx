import type { KeyValue } from '../api/types';

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Attribute pairs as a definition table; keys sorted so the same key is easy to find across spans. */
export function KeyValues({ pairs, caption }: { pairs: KeyValue[]; caption: string }) {
  if (pairs.length === 0) return <p className="muted">No {caption.toLowerCase()}.</p>;
  const sorted = [...pairs].sort(([a], [b]) => a.localeCompare(b));
  return (
    <table className="kv">
      <caption>{caption}</caption>
      <tbody>
        {sorted.map(([key, value], index) => (
          <tr key={`${key}-${index}`}>
            <th scope="row">{key}</th>
            <td>{show(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
