/** Durations for people: three significant digits in the largest fitting unit ("2.4 s", "310 ms"). */

const UNITS: readonly { unit: string; ns: number }[] = [
  { unit: 'h', ns: 3_600e9 },
  { unit: 'min', ns: 60e9 },
  { unit: 's', ns: 1e9 },
  { unit: 'ms', ns: 1e6 },
  { unit: 'µs', ns: 1e3 },
];

/** Formats a nanosecond duration; below 1 µs it is shown in whole nanoseconds. */
export function humanDuration(durationNs: bigint): string {
  const ns = Number(durationNs);
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  for (const { unit, ns: unitNs } of UNITS) {
    if (abs >= unitNs) return `${sign}${threeDigits(abs / unitNs)} ${unit}`;
  }
  return `${sign}${abs} ns`;
}

function threeDigits(value: number): string {
  // toPrecision then Number drops trailing zeros ("2.40" -> 2.4) and exponent forms (1.00e+3).
  return String(Number(value.toPrecision(3)));
}
