import type { ReactNode } from 'react';
import { AgentHeader } from '@/components/agent-header';
import { LiveStatusProvider } from '@/client/live-status';
import { TrpcProviders } from '@/client/trpc';
import { getWebDeps } from '@/server/deps';
import { requireUser } from '@/server/session';

// Every agent page needs the session of this request; nothing here may be prerendered.
export const dynamic = 'force-dynamic';

export default async function AgentLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <TrpcProviders>
      <LiveStatusProvider pollSeconds={getWebDeps().config.dashboardPollSeconds}>
        <AgentHeader userName={user.name} />
        <main id="main" className="page" tabIndex={-1}>
          {children}
        </main>
      </LiveStatusProvider>
    </TrpcProviders>
  );
}
