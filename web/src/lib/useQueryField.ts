import { useEffect, useRef, useState } from 'react';
import { setQuery, useQueryParam } from '../app/router';

/**
 * A text filter bound to a query parameter: typing updates the field at once and the URL after a
 * short pause (one history entry per pause, so back/forward step through filters). Back/forward
 * update the field from the URL.
 */
export function useQueryField(name: string, delayMs = 450): [string, (value: string) => void] {
  const urlValue = useQueryParam(name);
  const [value, setValue] = useState(urlValue);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    setValue(urlValue);
  }, [urlValue]);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const update = (next: string) => {
    setValue(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setQuery({ [name]: next.trim() }), delayMs);
  };
  return [value, update];
}
