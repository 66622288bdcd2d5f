import 'server-only';
import { cache } from 'react';
import { findAgentPropertyTitle } from '@staging/services/images/agent-properties';
import { getWebDeps } from './deps';
import { getCurrentUser } from './session';

/**
 * The title of the property a page is about, when the signed-in user may manage it; null
 * otherwise. Its pages name it in the browser tab, so an agent with several listings open can
 * tell the tabs apart.
 */
export const managedPropertyTitle = cache(async (propertyId: string): Promise<string | null> => {
  const user = await getCurrentUser();
  if (user === null) return null;
  return findAgentPropertyTitle(getWebDeps().db, { id: user.id, role: user.role }, propertyId);
});
