// Stable service colours: the same service keeps its hue on every page and in both themes.

const cache = new Map<string, number>();

/** A hue 0..359 derived from the service name (FNV-1a), spread by the golden angle. */
export function serviceHue(service: string): number {
  let hue = cache.get(service);
  if (hue !== undefined) return hue;
  let hash = 0x811c9dc5;
  for (let i = 0; i < service.length; i++) {
    hash ^= service.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hue = Math.round(((hash >>> 0) * 137.508) % 360);
  cache.set(service, hue);
  return hue;
}

/** The CSS colour of a service; lightness comes from a theme variable so dark mode stays readable. */
export function serviceColor(service: string): string {
  return `hsl(${serviceHue(service)} 62% var(--service-l))`;
}
