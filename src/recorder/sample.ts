/** One metric sample as read from a component, before the recorder stamps job, instance and time. */
export interface MetricSample {
  /** Full sample name (`x_total`, `x_bucket`, `x_sum`, `x_count`, a gauge's name). */
  metric: string;
  labels: Record<string, string>;
  /** Always finite: NaN and infinities are left out when read (JSON and rates have no use for them). */
  value: number;
}
