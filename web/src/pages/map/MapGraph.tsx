import { useMemo } from 'react';
import type { MapEdge, MapNode } from '../../api/types';
import { formatCountOf, formatDuration, formatPercent, formatRateIn, rateUnitFor, type RateUnit } from '../../lib/format';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from './layout';

/** The laid-out service graph as SVG; nodes are buttons that open the service's RED charts. */
export function MapGraph({
  nodes,
  edges,
  matched,
  selected,
  onSelect,
}: {
  nodes: MapNode[];
  edges: MapEdge[];
  matched: ReadonlySet<string>;
  selected: string;
  onSelect: (service: string) => void;
}) {
  const layout = useMemo(() => layoutGraph(nodes, edges), [nodes, edges]);
  const byName = new Map(layout.nodes.map((n) => [n.service, n]));
  // One unit for every rate on the map, chosen by the busiest service.
  const rateUnit = rateUnitFor(Math.max(0, ...nodes.map((n) => n.rate)));
  return (
    <div className="map-canvas">
      <svg width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} role="group" aria-label="Service map">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="map-arrow" />
          </marker>
        </defs>
        {/* Every line first, then every label on its plate: no line runs through any label. */}
        {(['line', 'label'] as const).map((part) =>
          layout.edges.map((edge) => {
            const from = byName.get(edge.parent);
            const to = byName.get(edge.child);
            if (from === undefined || to === undefined) return null;
            return <EdgePath key={`${part}:${edge.parent}->${edge.child}`} part={part} edge={edge} from={from} to={to} />;
          }),
        )}
        {layout.nodes.map((placed) => (
          <NodeBox
            key={placed.service}
            placed={placed}
            rateUnit={rateUnit}
            highlighted={matched.has(placed.service)}
            selected={placed.service === selected}
            onSelect={onSelect}
          />
        ))}
      </svg>
    </div>
  );
}

function EdgePath({ part, edge, from, to }: { part: 'line' | 'label'; edge: MapEdge; from: PlacedNode; to: PlacedNode }) {
  const forward = to.layer > from.layer;
  const x1 = forward ? from.x + NODE_WIDTH : from.x + NODE_WIDTH / 2;
  const y1 = forward ? from.y + NODE_HEIGHT / 2 : from.y + NODE_HEIGHT;
  const x2 = forward ? to.x : to.x + NODE_WIDTH / 2;
  const y2 = forward ? to.y + NODE_HEIGHT / 2 : to.y + NODE_HEIGHT;
  // Back and same-layer edges loop below the nodes so they do not cross them.
  const c1 = forward ? [x1 + 60, y1] : [x1, y1 + 60];
  const c2 = forward ? [x2 - 60, y2] : [x2, y2 + 60];
  const d = `M ${x1} ${y1} C ${c1[0]} ${c1[1]}, ${c2[0]} ${c2[1]}, ${x2} ${y2}`;
  // The label sits on the curve's middle, centred in the gap between layers, clear of both nodes.
  const [midX, midY] = bezierPoint([x1, y1], c1, c2, [x2, y2], 0.5);
  const tone = edge.error_rate >= 0.05 ? 'error' : edge.error_rate > 0 ? 'warn' : 'ok';
  const label = `${formatCountOf(edge.calls, 'call')} · ${formatPercent(edge.error_rate)} err · ${formatDuration(edge.avg_duration_ns)}`;
  // An opaque plate under the label: 10.5 px text averages under 6 px a character.
  const labelWidth = label.length * 6 + 8;
  if (part === 'line') {
    return (
      <g className={`map-edge tone-${tone}`}>
        <path d={d} markerEnd="url(#arrow)" strokeWidth={Math.min(5, 1 + Math.log10(1 + edge.calls))}>
          <title>{`${edge.parent} → ${edge.child}: ${formatCountOf(edge.calls, 'call')}, ${formatCountOf(edge.errors, 'error')} (${formatPercent(edge.error_rate)}), average ${formatDuration(edge.avg_duration_ns)}`}</title>
        </path>
      </g>
    );
  }
  return (
    <g className={`map-edge tone-${tone}`}>
      <rect x={midX - labelWidth / 2} y={midY - 16} width={labelWidth} height={15} rx={3} className="map-edge-plate" />
      <text x={midX} y={midY - 5} textAnchor="middle" className="map-edge-label">
        {label}
      </text>
    </g>
  );
}

function NodeBox({
  placed,
  rateUnit,
  highlighted,
  selected,
  onSelect,
}: {
  placed: PlacedNode;
  rateUnit: RateUnit;
  highlighted: boolean;
  selected: boolean;
  onSelect: (service: string) => void;
}) {
  const node = placed.node;
  const health = node?.health ?? 'ok';
  const detail =
    node === undefined
      ? 'no server spans'
      : `${formatRateIn(node.rate, rateUnit)} · ${formatPercent(node.error_ratio)} err · p99 ${formatDuration(node.p99_ns)}`;
  return (
    <g
      className={`map-node health-${health}${selected ? ' selected' : ''}${highlighted ? ' highlighted' : ''}`}
      transform={`translate(${placed.x} ${placed.y})`}
      role="button"
      tabIndex={0}
      aria-label={`${placed.service}, health ${health}, ${detail}. Open its charts.`}
      aria-pressed={selected}
      onClick={() => onSelect(placed.service)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onSelect(placed.service);
        }
      }}
    >
      <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx={8} />
      <text x={10} y={20} className="map-node-name">
        {placed.service.length > 26 ? `${placed.service.slice(0, 25)}…` : placed.service}
      </text>
      <text x={10} y={38} className="map-node-detail">
        {detail}
      </text>
      <title>{`${placed.service}: ${health}; ${detail}`}</title>
    </g>
  );
}

function bezierPoint(p0: number[], p1: number[], p2: number[], p3: number[], t: number): [number, number] {
  const u = 1 - t;
  const at = (i: number) => u * u * u * p0[i] + 3 * u * u * t * p1[i] + 3 * u * t * t * p2[i] + t * t * t * p3[i];
  return [at(0), at(1)];
}
