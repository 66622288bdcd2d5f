import { ServerResponse } from 'node:http';

/**
 * Next.js puts its own Vary on every page answer with setHeader, which drops the one the proxy
 * set (an open upstream bug), so a CDN would not know that the public pages vary by language.
 * Until that is fixed, setting Vary on a response adds to what it already has; varying by more
 * is never wrong, only less cacheable.
 */
export function mergeVaryWhenSet(): void {
  const setHeader = ServerResponse.prototype.setHeader;
  ServerResponse.prototype.setHeader = function (this: ServerResponse, name: string, value: number | string | readonly string[]) {
    const merged = name.toLowerCase() === 'vary' && this.hasHeader('vary') ? mergeVary(this.getHeader('vary'), value) : value;
    return setHeader.call(this, name, merged);
  };
}

/** Both Vary values as one, each field once (the first spelling kept), in the order first seen. */
export function mergeVary(...values: (number | string | readonly string[] | undefined)[]): string {
  const fields = new Map<string, string>();
  for (const value of values.flat()) {
    for (const field of String(value ?? '').split(',')) {
      const trimmed = field.trim();
      if (trimmed !== '' && !fields.has(trimmed.toLowerCase())) fields.set(trimmed.toLowerCase(), trimmed);
    }
  }
  return [...fields.values()].join(', ');
}
