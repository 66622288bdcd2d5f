import { useTranslations } from 'next-intl';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';

/** The search form: a plain GET to /search, so it works without JavaScript. */
export function SearchForm({ q }: { q: string }) {
  const t = useTranslations('search');
  return (
    <form method="get" action="/search" role="search" className="toolbar" aria-label={t('formLabel')}>
      <div className="field" style={{ flex: '1 1 260px' }}>
        <label htmlFor="search-q">{t('queryLabel')}</label>
        <input id="search-q" name="q" type="search" defaultValue={q} maxLength={PUBLIC_SEARCH_LIMITS.queryMaxLength} />
      </div>
      <button type="submit" className="button button-primary">
        {t('submit')}
      </button>
    </form>
  );
}
