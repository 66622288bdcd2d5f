'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef } from 'react';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { CompareView } from './compare-view';
import type { ReviewVariant } from './review-data';

/** One variant waiting for review: its title, selection, Approve/Reject and the comparison. */
export function ReviewCard({
  item,
  current,
  reveal,
  selected,
  busy,
  onSelect,
  onFocus,
  onApprove,
  onReject,
}: {
  item: ReviewVariant;
  current: boolean;
  /**
   * Bring the card into view, and with `focus` move the keyboard focus to it: it became current
   * by a shortcut or a review, not by a click. A new object each time it is asked.
   */
  reveal: { focus: boolean } | undefined;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onFocus: () => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  const id = useId();
  const t = useTranslations('review');
  const { styleName } = usePhotoNaming();
  const ref = useRef<HTMLLIElement>(null);
  const style = styleName(item.variant.canonicalStyle ?? item.variant.style);
  useEffect(() => {
    if (reveal === undefined) return;
    // Focus first without its own scroll: 'nearest' moves the page the least.
    if (reveal.focus) ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [reveal]);

  return (
    <li
      ref={ref}
      className="card stack review-item"
      data-testid="review-item"
      data-image-id={item.variant.id}
      data-current={current}
      aria-labelledby={`${id}-title`}
      aria-current={current ? 'true' : undefined}
      tabIndex={-1}
      onFocusCapture={onFocus}
    >
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id={`${id}-title`} style={{ fontSize: '1.1rem', margin: 0 }}>
          {item.property.title}: {item.name} · {style}
        </h2>
        <label className="row small">
          <input type="checkbox" checked={selected} onChange={(event) => onSelect(event.target.checked)} />
          {t('select')}<span className="visually-hidden"> {item.name} {style}</span>
        </label>
      </div>
      {/* Right under the title, before the comparison: on a phone a card is taller than the
          screen, and its actions are on screen as soon as the card is. */}
      <div className="row" data-testid="review-actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={onApprove} aria-keyshortcuts="A">
          {t('approve')}<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <button type="button" className="button" disabled={busy} onClick={onReject} aria-keyshortcuts="R">
          {t('reject')}<span className="visually-hidden"> {item.name} {style}</span>
        </button>
        <Link href={`/properties/${encodeURIComponent(item.property.id)}`} className="small">
          {t('openProperty')}<span className="visually-hidden"> {item.property.title}</span>
        </Link>
      </div>
      {item.original === undefined ? (
        <img src={item.variant.url} alt={t('afterAlt', { name: item.name })} />
      ) : (
        <CompareView before={item.original} after={item.variant} name={item.name} />
      )}
    </li>
  );
}
