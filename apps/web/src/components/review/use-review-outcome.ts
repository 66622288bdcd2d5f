'use client';

import { useState } from 'react';
import { useFocusTarget } from '@/client/use-focus-target';
import type { ReviewVariant } from './review-data';

export interface Outcome {
  text: string;
  /** Rejected variants that can be staged again in the same style. */
  retry: ReviewVariant[];
  error?: boolean;
}

/** The queue's last outcome, and how it is reported. */
export interface OutcomeReport {
  /** Shown in the status line, where the focus already is or need not go. */
  show: (next: Outcome) => void;
  /** Shown and focused: the reviewed item (and the button that was pressed) is gone. */
  announce: (next: Outcome) => void;
}

/** What every review action needs once its request is answered. */
export interface ReviewActionDeps {
  /** Moves the queue past the items the action took out of it. */
  advancePast: (done: ReviewVariant[]) => void;
  report: OutcomeReport;
  refresh: () => Promise<unknown>;
}

/** The status line's outcome; every announced outcome takes focus. */
export function useReviewOutcome() {
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const outcomeFocus = useFocusTarget<HTMLDivElement>();
  const report: OutcomeReport = {
    show: setOutcome,
    announce: (next: Outcome) => {
      setOutcome(next);
      outcomeFocus.moveFocus();
    },
  };
  return { outcome, ref: outcomeFocus.ref, ...report };
}
