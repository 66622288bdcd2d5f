'use client';

import { useState } from 'react';
import type { ReviewVariant } from './review-data';

/**
 * The queue as the agent works through it: the variant linked from the property page first, and
 * without the approvals held for their Undo or sent since the queue was last read (`setHidden`).
 */
export function usePendingQueue(waiting: ReviewVariant[], focusImageId: string | undefined) {
  waiting.sort((a, b) => Number(b.variant.id === focusImageId) - Number(a.variant.id === focusImageId));
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  return { pending: waiting.filter((item) => !hidden.has(item.variant.id)), setHidden };
}
