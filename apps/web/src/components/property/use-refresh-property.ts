'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/client/trpc';

/** Reads the property again, and the property list its photos show in. */
export function useRefreshProperty(propertyId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey({ propertyId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() }),
    ]);
}
