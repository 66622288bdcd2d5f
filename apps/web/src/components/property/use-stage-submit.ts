'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RoomType } from '@staging/domain/room-types';
import type { CanonicalStyle } from '@staging/domain/styles';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { describeError } from '@/lib/api-errors';
import type { StageResultList } from './stage-results';

interface Assignment {
  originalImageId: string;
  roomType: RoomType;
  style: CanonicalStyle;
}

/**
 * Sending the staging form through ai.submitStaging, and what comes back: the results, or the
 * error, or the kill switch. Each answer takes focus: the button stays, but the answer is below it.
 */
export function useStageSubmit({
  propertyId,
  stagingEnabled,
  photoLabel,
  onSubmitted,
}: {
  propertyId: string;
  stagingEnabled: boolean;
  photoLabel: (imageId: string) => string;
  onSubmitted: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resultFocus = useFocusTarget<HTMLHeadingElement>();
  const errorFocus = useFocusTarget<HTMLParagraphElement>();
  // The kill-switch notice, when pressing Stage explains the state or the server refused with it.
  const noticeFocus = useFocusTarget<HTMLDivElement>();
  const [results, setResults] = useState<StageResultList | undefined>();

  const submit = useMutation(
    trpc.ai.submitStaging.mutationOptions({
      onError: (error) => (describeError(error).code === 'STAGING_UNAVAILABLE' ? noticeFocus : errorFocus).moveFocus(),
      onSuccess: async (result, input) => {
        const names = Object.fromEntries(input.assignments.map((a) => [a.originalImageId, photoLabel(a.originalImageId)]));
        setResults({ items: result.items, names });
        onSubmitted();
        resultFocus.moveFocus();
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey({ propertyId }) }),
        ]);
      },
    }),
  );
  const unavailable = !stagingEnabled || (submit.isError && describeError(submit.error).code === 'STAGING_UNAVAILABLE');

  return {
    /** The kill switch is off, known from the configuration or from the server's refusal. */
    unavailable,
    results,
    send: (assignments: Assignment[]) => {
      setResults(undefined);
      submit.mutate({ assignments });
    },
    /** Explains the kill switch instead of sending. */
    showNotice: () => noticeFocus.moveFocus(),
    isPending: submit.isPending,
    error: submit.isError ? submit.error : undefined,
    resultRef: resultFocus.ref,
    errorRef: errorFocus.ref,
    noticeRef: noticeFocus.ref,
  };
}
