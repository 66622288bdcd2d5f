import type { ImageDeps } from '../images/image-deps';

/** What the public-page settings need: no storage, since no bytes are read or written. */
export type PublicPageDeps = Pick<ImageDeps, 'db' | 'searchQueue' | 'logger' | 'clock' | 'publicListingChanged'>;
