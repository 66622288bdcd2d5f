import { getTranslations } from 'next-intl/server';
import { PropertyList } from '@/components/property-list';
import { titledPage } from '@/components/titled-page';

const page = titledPage(async () => (await getTranslations('properties'))('title'), PropertyList);

export const generateMetadata = page.generateMetadata;
export default page.Page;
