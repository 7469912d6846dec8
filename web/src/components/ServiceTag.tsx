import { serviceColor } from '../lib/colors';

/** A service name with its stable colour swatch. */
export function ServiceTag({ service }: { service: string }) {
  return (
    <span className="service-tag">
      <span className="swatch" style={{ background: serviceColor(service) }} aria-hidden="true" />
      {service}
    </span>
  );
}
