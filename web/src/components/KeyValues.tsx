import type { ReactNode } from 'react';
import type { KeyValue } from '../api/types';

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * A dotted attribute name with break opportunities after its separators, so a long name wraps at
 * `.`, `_`, `-` or `/` rather than mid-word (the CSS breaks inside a part only when one part alone
 * is wider than the column).
 */
export function breakableKey(key: string): ReactNode[] {
  const out: ReactNode[] = [];
  key.split(/(?<=[._\-/])/).forEach((part, index) => {
    if (index > 0) out.push(<wbr key={`w${index}`} />);
    out.push(part);
  });
  return out;
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
            <th scope="row">{breakableKey(key)}</th>
            <td>{show(value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
