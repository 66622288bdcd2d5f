'use client';

import { useEffect, useRef } from 'react';

/**
 * Keeps `--header-height` on <html> at the height of the header it is rendered in. The header is
 * sticky, and its height changes (a wrapped row, the phone menu opened), so the scroll padding
 * that keeps focused and revealed elements from ending up under it follows it here.
 */
export function HeaderHeight() {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const header = ref.current?.closest('header');
    if (header == null) return undefined;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--header-height', `${header.offsetHeight}px`));
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--header-height');
    };
  }, []);
  return <span ref={ref} hidden />;
}
