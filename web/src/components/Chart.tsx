import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatLocal, formatUtc } from '../lib/format';
import { countSplits, paddedTimeRange } from '../lib/series';

export interface ChartSeries {
  label: string;
  /** A CSS variable name (`--error`) or a colour. */
  color: string;
  values: (number | null)[];
  bars?: boolean;
  /** Side-by-side bars: -1 left of the tick, 1 right, so two bar series do not hide each other. */
  barAlign?: -1 | 1;
}

function cssColor(color: string, element: HTMLElement): string {
  return color.startsWith('--') ? getComputedStyle(element).getPropertyValue(color).trim() || '#888' : color;
}

/**
 * A uPlot time-series chart over x values in Unix seconds. Rebuilt when data or theme change
 * (uPlot takes colours at construction); sized to its container. With `stepSecs` (the bucket
 * width) the time scale reaches half a bucket past the first and last point, so every bar shows,
 * including one drawn right of the newest point. `counts` puts y ticks on whole numbers only.
 */
export function Chart({
  title,
  xs,
  series,
  height = 180,
  format = (v: number) => String(v),
  yMin,
  stepSecs,
  counts = false,
}: {
  title: string;
  xs: number[];
  series: ChartSeries[];
  height?: number;
  format?: (value: number) => string;
  yMin?: number;
  stepSecs?: number;
  counts?: boolean;
}) {
  const holder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    let plot: uPlot | null = null;
    const build = () => {
      plot?.destroy();
      const axisColor = cssColor('--muted', element);
      const gridColor = cssColor('--grid', element);
      const axis: uPlot.Axis = { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor, width: 1 } };
      plot = new uPlot(
        {
          width: Math.max(200, element.clientWidth),
          height,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          // From yMin up to the data's top (or yMin + 1 when all values are yMin), so small values keep their shape.
          scales: {
            x: { time: true, range: (_u, min, max) => paddedTimeRange(min, max, stepSecs) },
            y: yMin === undefined ? {} : { range: (_u, _min, max) => [yMin, max > yMin ? max * 1.05 : yMin + 1] },
          },
          axes: [
            { ...axis },
            {
              ...axis,
              size: 64,
              ...(counts ? { splits: (_u: uPlot, _axis: number, min: number, max: number, incr: number) => countSplits(min, max, incr) } : {}),
              values: (_u, values) => values.map((v) => (v === null ? '' : format(v))),
            },
          ],
          series: [
            { label: 'Time', value: (_u, v) => (v === null ? '–' : `${formatLocal(v * 1000)} (${formatUtc(v * 1000)})`) },
            ...series.map((s) => {
              const stroke = cssColor(s.color, element);
              return {
                label: s.label,
                stroke,
                width: s.bars ? 0 : 1.5,
                // Only a lone line gets an area fill: overlapping fills would hide each other.
                fill: s.bars ? stroke : series.length === 1 ? `${stroke}22` : undefined,
                paths: s.bars ? uPlot.paths.bars?.(s.barAlign === undefined ? { size: [0.8, 24] } : { size: [0.4, 12], align: s.barAlign }) : undefined,
                points: { show: false },
                spanGaps: false,
                value: (_u: uPlot, v: number | null) => (v === null ? '–' : format(v)),
              };
            }),
          ],
        },
        [xs, ...series.map((s) => s.values)],
        element,
      );
    };
    build();
    const resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(200, element.clientWidth), height }));
    resize.observe(element);
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', build);
    return () => {
      resize.disconnect();
      scheme.removeEventListener('change', build);
      plot?.destroy();
    };
  }, [xs, series, height, format, yMin, stepSecs, counts]);

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div ref={holder} className="chart-plot" />
    </figure>
  );
}
