/**
 * `list[index]` for an index the caller's own logic keeps in range (a position it computed, a
 * parent it recorded). Under noUncheckedIndexedAccess a plain read is `T | undefined`; a miss here
 * is a bug in that logic, so it throws at the read instead of carrying `undefined` further.
 * Not for lists whose items may themselves be undefined.
 */
export function at<T>(list: ArrayLike<T>, index: number): T {
  const item = list[index];
  if (item === undefined) throw new RangeError(`index ${index} outside 0..${list.length - 1}`);
  return item;
}
