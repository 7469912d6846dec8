/**
 * svc's own API answers attributes as `[key, value]` pairs (the contract's shape): the stored mark
 * that keeps an OTLP type JSON hides (signals.ts) is for the Jaeger APIs and is left out here.
 */

import type { AttrMark, AttrPair, AttrValue } from './signals.js';

/** An attribute as svc's API answers it. */
export type PlainAttrPair = [key: string, value: AttrValue];

/** The pairs without their marks; the same array when none has one (most lists). */
export function withoutMarks(pairs: readonly AttrPair[]): PlainAttrPair[] {
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i]!.length > 2) return pairs.map((pair): PlainAttrPair => [pair[0], pair[1]]);
  }
  // No pair has a third element: each is already a plain pair.
  return pairs as PlainAttrPair[];
}

/** The mark of item `key` (an index or a map key) of a list's or map's marks, if any. */
export function itemMark(mark: AttrMark | undefined, key: number | string): AttrMark | undefined {
  if (mark === undefined || typeof mark === 'string') return undefined;
  const item = Array.isArray(mark) ? mark[key as number] : Object.hasOwn(mark, key) ? mark[key] : undefined;
  return item ?? undefined;
}
