// Service colours: distinct for the services a user sees together, never the error red, and the
// same service keeps its colour on every page of a session and in both themes.

/**
 * 12 hues 27 degrees apart, none within 30 degrees of red (0/360), in an order that puts
 * the first services far apart on the wheel. Lightness comes from a theme variable.
 */
export const PALETTE_HUES = [221, 30, 139, 303, 85, 194, 57, 248, 112, 275, 166, 330];
/** Hues a hashed (13th and later) service may take: red and its neighbours stay the error's. */
const RED_FREE_FROM = 30;
const RED_FREE_TO = 330;

const assigned = new Map<string, number>();
let nextSlot = 0;

/** FNV-1a of the name, spread by the golden angle into the hues away from red. */
function hashedHue(service: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < service.length; i++) {
    hash ^= service.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return RED_FREE_FROM + Math.round(((hash >>> 0) * 137.508) % (RED_FREE_TO - RED_FREE_FROM));
}

/**
 * Gives the palette's slots to `services` in the order given (the app passes the sorted service
 * list once it arrives), skipping services that already have a colour.
 */
export function assignServiceColors(services: readonly string[]): void {
  for (const service of services) serviceHue(service);
}

/** The hue 0..359 of a service: a palette slot for each of the first 12 seen, then a red-free hash. */
export function serviceHue(service: string): number {
  let hue = assigned.get(service);
  if (hue !== undefined) return hue;
  const slot = nextSlot < PALETTE_HUES.length ? PALETTE_HUES[nextSlot++] : undefined;
  hue = slot ?? hashedHue(service);
  assigned.set(service, hue);
  return hue;
}

/** The CSS colour of a service; lightness comes from a theme variable so dark mode stays readable. */
export function serviceColor(service: string): string {
  return `hsl(${serviceHue(service)} 62% var(--service-l))`;
}

/** Forgets every assignment (tests). */
export function resetServiceColors(): void {
  assigned.clear();
  nextSlot = 0;
}
