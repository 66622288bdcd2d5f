'use client';

import { useTranslations } from 'next-intl';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { MoreButton } from '@/components/more-button';
import type { ReviewVariant } from './review-data';

/** The published section: the approved variants a page at a time, each with its take-down. */
export function PublishedSection({
  id,
  items,
  more,
  busy,
  onTakeDown,
}: {
  /** Prefix of the heading's id. */
  id: string;
  items: ReviewVariant[];
  /** The next page, while there is one. */
  more: (() => void) | undefined;
  busy: boolean;
  onTakeDown: (item: ReviewVariant) => void;
}) {
  const t = useTranslations('review');
  return (
    <section className="section" aria-labelledby={`${id}-published`}>
      <h2 id={`${id}-published`}>{t('published')}</h2>
      <p className="muted small">{t('publishedIntro')}</p>
      <PublishedList items={items} busy={busy} onTakeDown={onTakeDown} />
      <MoreButton more={more} label={t('morePublished')} testId="review-more" />
    </section>
  );
}

function PublishedList({ items, busy, onTakeDown }: { items: ReviewVariant[]; busy: boolean; onTakeDown: (item: ReviewVariant) => void }) {
  const t = useTranslations('review');
  const { styleName } = usePhotoNaming();
  if (items.length === 0) return <p className="muted">{t('nonePublished')}</p>;
  return (
    <ul className="variant-strip" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => {
        const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
        return (
          <li key={item.variant.id} className="card stack" style={{ gap: '0.4rem', padding: '0.5rem' }} data-testid="published-item" data-image-id={item.variant.id}>
            <div className="cmp-frame" style={{ aspectRatio: `${item.variant.width} / ${item.variant.height}` }}>
              <img src={item.variant.url} alt={t('publishedAlt', { name: item.name, style })} loading="lazy" />
            </div>
            <span className="small">
              {item.property.title}: {item.name} · {style}
            </span>
            <button type="button" className="button button-small button-danger" disabled={busy} onClick={() => onTakeDown(item)}>
              {t('takeDown')}<span className="visually-hidden"> {item.name} {style}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
