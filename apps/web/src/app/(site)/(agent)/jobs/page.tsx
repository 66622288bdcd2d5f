import { getTranslations } from 'next-intl/server';
import { JobsPanel } from '@/components/property/jobs-panel';
import { titledPage } from '@/components/titled-page';

/** Every staging job of the agent's properties (every property for an admin), newest first. */
const page = titledPage(async () => (await getTranslations('jobs'))('pageTitle'), JobsPanel);

export const generateMetadata = page.generateMetadata;
export default page.Page;
