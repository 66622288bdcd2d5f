import type { Metadata } from 'next';
import type { ComponentType } from 'react';
import { PageTitle } from './page-title';

/**
 * An agent page that is a heading and one component, where the browser tab says what the heading
 * says. `title` reads the message catalogue on the server, in the request's locale.
 */
export function titledPage(title: () => Promise<string>, Body: ComponentType) {
  return {
    async generateMetadata(): Promise<Metadata> {
      return { title: await title() };
    },
    async Page() {
      return (
        <>
          <PageTitle>{await title()}</PageTitle>
          <Body />
        </>
      );
    },
  };
}
