import { formatLocal, formatUtc } from '../lib/format';

/** A timestamp in local time with its UTC form on hover. Takes ns (as the API sends) or ms. */
export function Time({ ns, ms, timeOnly = false }: { ns?: number; ms?: number; timeOnly?: boolean }) {
  const value = ms ?? (ns ?? 0) / 1e6;
  if (!Number.isFinite(value) || value <= 0) return <span>–</span>;
  return (
    <time dateTime={new Date(value).toISOString()} title={formatUtc(value)}>
      {formatLocal(value, timeOnly)}
    </time>
  );
}
