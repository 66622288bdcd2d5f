'use client';

import { useState, type ReactNode } from 'react';
import styles from './switch.module.css';

/**
 * An on/off setting that applies at once: a native checkbox with the switch role (so assistive
 * technology announces "on"/"off"), its label beside it and a touch target of 44 px. While
 * `onChange` runs the switch shows the requested position (disabled); when it settles it shows
 * `checked` again, the saved value, so a refused change flips back.
 */
export function Switch({
  checked,
  disabled,
  describedBy,
  onChange,
  children,
}: {
  checked: boolean;
  disabled?: boolean;
  describedBy?: string | undefined;
  onChange: (checked: boolean) => Promise<void>;
  children: ReactNode;
}) {
  const [requested, setRequested] = useState<boolean | undefined>();
  return (
    <label className={styles.switch}>
      <input
        type="checkbox"
        role="switch"
        checked={requested ?? checked}
        disabled={disabled === true || requested !== undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const next = event.target.checked;
          setRequested(next);
          void onChange(next).finally(() => setRequested(undefined));
        }}
      />
      <span>{children}</span>
    </label>
  );
}
