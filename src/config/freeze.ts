/**
 * Freezes an object graph so no component can change settings another one reads.
 * Byte views (the session key Buffer) are left as they are: V8 refuses to freeze a non-empty typed array.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
