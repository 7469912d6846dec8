/** Story kind or alert kind as a coloured word (colour is never the only signal). */
export function KindBadge({ kind }: { kind: string }) {
  return <span className={`badge kind-${kind}`}>{kind}</span>;
}
