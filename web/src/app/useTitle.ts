import { useEffect } from 'react';

/** Names the browser tab after the page, so history entries and tabs are distinguishable. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title === '' ? 'svc' : `${title} · svc`;
  }, [title]);
}
