'use client';

import { useEffect, useRef, useState } from 'react';

/**
 * Focus for the result of a submit. The control that had focus (a Save button, a dialog's
 * confirm) often disappears with the answer, and the browser then drops focus to <body>, so a
 * keyboard or screen-reader user loses their place. `moveFocus()` focuses the element behind
 * `ref` once the render that shows the result has committed (the element may only exist then).
 * The target is a status message or heading with tabIndex={-1}.
 */
export function useFocusTarget<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) ref.current?.focus();
  }, [requests]);
  return { ref, moveFocus: () => setRequests((count) => count + 1) };
}
