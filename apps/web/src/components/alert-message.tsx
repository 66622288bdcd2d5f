import type { CSSProperties } from 'react';

const TONE_CLASS = { field: 'field-error', page: 'alert alert-error' } as const;

/**
 * A message a screen reader announces as soon as it appears (role="alert"); nothing is rendered
 * without one, so callers pass `undefined` rather than wrapping it in a condition. `field` sits
 * under a control, `page` is a boxed banner.
 */
export function AlertMessage({
  message,
  tone = 'field',
  id,
  style,
}: {
  message: string | undefined;
  tone?: keyof typeof TONE_CLASS;
  id?: string;
  style?: CSSProperties;
}) {
  if (message === undefined) return null;
  return (
    <p className={TONE_CLASS[tone]} role="alert" id={id} style={style}>
      {message}
    </p>
  );
}
