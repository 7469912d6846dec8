import { useId, useMemo } from 'react';
import { stepIndex, type TraceTree } from './tree';

/**
 * Finding spans in a big trace: matches on service or span name, and a step through error spans.
 * Stepping selects the span, which unfolds its ancestors and scrolls it into view.
 */
export function TraceFind({
  tree,
  find,
  onFind,
  selectedId,
  onSelect,
}: {
  tree: TraceTree;
  find: string;
  onFind: (value: string) => void;
  selectedId: string;
  onSelect: (spanId: string) => void;
}) {
  const inputId = useId();
  const needle = find.trim().toLowerCase();
  const matches = useMemo(() => {
    if (needle === '') return [];
    const hits: number[] = [];
    tree.rows.forEach((row, index) => {
      if (row.span.service_name.toLowerCase().includes(needle) || row.span.span_name.toLowerCase().includes(needle)) hits.push(index);
    });
    return hits;
  }, [tree, needle]);
  const errors = useMemo(() => tree.rows.flatMap((row, index) => (row.isError ? [index] : [])), [tree]);
  const current = tree.indexById.get(selectedId) ?? -1;

  const step = (list: number[], direction: 1 | -1) => {
    const next = stepIndex(list, current, direction);
    if (next >= 0) onSelect(tree.rows[next].span.span_id);
  };
  const position = (list: number[]) => {
    const at = list.indexOf(current);
    return at < 0 ? '' : `${at + 1} of `;
  };

  return (
    <div className="trace-find" role="group" aria-label="Find spans">
      <label htmlFor={inputId}>Find</label>
      <input
        id={inputId}
        type="search"
        value={find}
        placeholder="service or span name"
        spellCheck={false}
        onChange={(event) => onFind(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') step(matches, event.shiftKey ? -1 : 1);
        }}
      />
      {needle !== '' && (
        <>
          <span className="muted" aria-live="polite">
            {position(matches)}
            {matches.length} match{matches.length === 1 ? '' : 'es'}
          </span>
          <button type="button" className="secondary-button" onClick={() => step(matches, -1)} disabled={matches.length === 0} aria-label="Previous match">
            ↑
          </button>
          <button type="button" className="secondary-button" onClick={() => step(matches, 1)} disabled={matches.length === 0} aria-label="Next match">
            ↓
          </button>
        </>
      )}
      {errors.length > 0 && (
        <button type="button" className="secondary-button error-step" onClick={() => step(errors, 1)}>
          Next error ({position(errors)}
          {errors.length})
        </button>
      )}
    </div>
  );
}
