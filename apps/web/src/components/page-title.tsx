import type { ReactNode } from 'react';

/** The heading row every agent page starts with. */
export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{children}</h1>
    </div>
  );
}
