'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { useId, useState, type FormEvent, type Ref } from 'react';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { splitByLiveVariant } from '@staging/domain/live-variant';
import { isTooSmallToStage, MIN_STAGING_SHORT_EDGE } from '@staging/domain/photo-upload';
import { isRoomType, type RoomType } from '@staging/domain/room-types';
import { CANONICAL_STYLES, styleDescription, styleLabel, type CanonicalStyle } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { describeError } from '@/lib/api-errors';
import { microusdToUsd } from '@/lib/format';
import { AlertMessage } from '@/components/alert-message';
import { RoomTypeOptions } from '../vocabulary-options';

type AgentProperty = RouterOutputs['property']['get'];
type SubmitResult = RouterOutputs['ai']['submitStaging'];

const DISPOSITION_KEYS = {
  ENQUEUED: 'dispositionENQUEUED',
  EXISTING: 'dispositionEXISTING',
  style_exists: 'dispositionStyleExists',
} as const satisfies Record<SubmitResult['items'][number]['disposition'], string>;

/** The localized "temporarily unavailable" state of the kill switch. */
function UnavailableNotice({ id, ref }: { id: string; ref: Ref<HTMLDivElement> }) {
  const t = useTranslations('stage');
  return (
    <div className="alert alert-warning" role="alert" id={id} tabIndex={-1} data-testid="staging-unavailable" ref={ref}>
      <strong>{t('unavailableTitle')}</strong>
      <p style={{ margin: '0.25rem 0 0' }}>{t('unavailableBody')}</p>
    </div>
  );
}

/**
 * "Already staged": the way to the variant in the way, so the message is not a dead end, named
 * after what can be done with it there: a pending one is reviewed, an approved one taken down.
 */
function ExistingVariantLink({ variant }: { variant: { id: string; reviewStatus: string | null } | undefined }) {
  const t = useTranslations('stage');
  if (variant === undefined) return null;
  return (
    <>
      {' '}
      <Link href={`/review?image=${encodeURIComponent(variant.id)}`}>
        {variant.reviewStatus === 'APPROVED' ? t('takeDownExisting') : t('reviewExisting')}
      </Link>
    </>
  );
}

/**
 * The price shown before submitting: per photo, for the photos the submission will stage, and
 * with a retry (attempt 2). Photos already staged in the chosen style are named and left out:
 * the submission answers them "Already staged" and buys nothing.
 */
function PriceEstimate({
  priceMicrousd,
  selected,
  toStage,
  alreadyStaged,
}: {
  priceMicrousd: number | null;
  selected: number;
  toStage: number;
  /** Labels of the selected photos that already have a live variant in the chosen style. */
  alreadyStaged: { photos: string[]; style: string };
}) {
  const t = useTranslations('stage');
  const locale = useLocale();
  const perPhoto = priceMicrousd === null ? 0 : microusdToUsd(priceMicrousd);
  const text =
    priceMicrousd === null
      ? t('estimateUnset')
      : selected === 0
        ? t('estimatePerPhoto', { perPhoto, worst: perPhoto * 2 })
        : toStage === 0
          ? t('estimateNothing', { photos: selected })
          : t('estimateBefore', { perPhoto, total: perPhoto * toStage, worst: perPhoto * toStage * 2, photos: toStage });
  return (
    <div aria-live="polite">
      <p className="small" data-testid="price-estimate">
        {text} <span className="muted">{t('estimateNote')}</span>
      </p>
      {alreadyStaged.photos.length > 0 && (
        <p className="small" data-testid="already-staged">
          {t('alreadyStagedNote', {
            count: alreadyStaged.photos.length,
            style: alreadyStaged.style,
            photos: new Intl.ListFormat(locale, { type: 'conjunction' }).format(alreadyStaged.photos),
          })}
        </p>
      )}
    </div>
  );
}

/**
 * Pick originals, a room type per photo (prefilled from the persisted roomType) and one of the six
 * canonical styles; submit through ai.submitStaging and show each assignment's disposition. With
 * the kill switch off (known from the server configuration) the action sends nothing.
 */
export function StagePanel({
  property,
  stagingEnabled,
  priceMicrousd,
}: {
  property: AgentProperty;
  stagingEnabled: boolean;
  /** One attempt at the configured quality (AI_STAGING_COST_MICROUSD_*); null: no estimate. */
  priceMicrousd: number | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { t, locale, errorSentence } = useDashboardText('stage');
  const tp = useTranslations('photos');
  const id = useId();
  // After a submit the result (or the error) takes focus: the button stays, but the answer is below it.
  const resultFocus = useFocusTarget<HTMLHeadingElement>();
  const errorFocus = useFocusTarget<HTMLParagraphElement>();
  // The kill-switch notice, when pressing Stage explains the state or the server refused with it.
  const noticeFocus = useFocusTarget<HTMLDivElement>();
  const originals = property.images.filter((image) => !image.isStyled);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [roomTypes, setRoomTypes] = useState<Record<string, RoomType | ''>>({});
  const [style, setStyle] = useState<CanonicalStyle | ''>('');
  // After a refused submit the form says what is missing and follows the selection from then on:
  // the message goes the moment the selection can be staged, and comes back if it stops being so.
  const [validating, setValidating] = useState(false);
  const [results, setResults] = useState<{ items: SubmitResult['items']; names: Record<string, string> } | undefined>();

  const variantOf = (originalImageId: string, canonicalStyle: string) =>
    property.images.find((image) => image.isStyled && image.styledFromId === originalImageId && image.canonicalStyle === canonicalStyle);

  const submit = useMutation(
    trpc.ai.submitStaging.mutationOptions({
      onError: (error) => (describeError(error).code === 'STAGING_UNAVAILABLE' ? noticeFocus : errorFocus).moveFocus(),
      onSuccess: async (result, input) => {
        const names = Object.fromEntries(input.assignments.map((a) => [a.originalImageId, photoLabel(a.originalImageId)]));
        setResults({ items: result.items, names });
        setSelected(new Set());
        resultFocus.moveFocus();
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.ai.jobHistory.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey({ propertyId: property.id }) }),
        ]);
      },
    }),
  );
  const unavailable = !stagingEnabled || (submit.isError && describeError(submit.error).code === 'STAGING_UNAVAILABLE');

  // Photos go by their file name; "Photo N" only for those stored before names were kept.
  function photoLabel(imageId: string): string {
    const index = originals.findIndex((image) => image.id === imageId);
    return index === -1 ? imageId : (originals[index]?.fileName ?? tp('numbered', { index: index + 1 }));
  }
  const roomTypeOf = (imageId: string): RoomType | '' => {
    if (imageId in roomTypes) return roomTypes[imageId] ?? '';
    const persisted = originals.find((image) => image.id === imageId)?.roomType ?? null;
    return isRoomType(persisted) ? persisted : '';
  };

  const chosen = originals.filter((image) => selected.has(image.id));
  // Before a style is chosen every selected photo may be staged; after, the submission's own rule says which.
  const plan =
    style === '' ? { toStage: chosen.map((image) => image.id), alreadyStaged: [] } : splitByLiveVariant(chosen.map((image) => image.id), style, property.images);
  // Once photos and a style are picked, the first chosen photo still without a room type.
  const roomMissing = chosen.length > 0 && style !== '' ? chosen.find((image) => roomTypeOf(image.id) === '') : undefined;
  /** What the selection lacks before it can be staged, or undefined. */
  const missing = (): string | undefined => {
    if (chosen.length === 0 || style === '') return t('pickAtLeastOne');
    return roomMissing === undefined ? undefined : t('roomTypeMissing', { photo: photoLabel(roomMissing.id) });
  };
  const formError = validating ? missing() : undefined;
  // The room type the message is about: marked invalid and described by it.
  const invalidRoom = validating ? roomMissing?.id : undefined;
  const roomSelectId = (imageId: string) => `${id}-room-${imageId}`;
  const smallWarningId = (imageId: string) => `${id}-small-${imageId}`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The flag is off: show why and send nothing at all.
    if (unavailable) return noticeFocus.moveFocus();
    const invalid = missing() !== undefined;
    setValidating(invalid);
    // The agent goes straight to the field to fix.
    if (roomMissing !== undefined) document.getElementById(roomSelectId(roomMissing.id))?.focus();
    // (The empty style again only for the type checker: missing() has refused it already.)
    if (invalid || style === '') return;
    setResults(undefined);
    submit.mutate({
      assignments: chosen.map((image) => ({ originalImageId: image.id, roomType: roomTypeOf(image.id) as RoomType, style })),
    });
  };

  return (
    <section className="card section" id="stage-panel" tabIndex={-1} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('title')}</h2>
      {unavailable && <UnavailableNotice id={`${id}-unavailable`} ref={noticeFocus.ref} />}
      {!unavailable && <p className="muted">{t('intro')}</p>}
      {originals.length === 0 ? (
        <p>{t('noOriginals')}</p>
      ) : (
        // noValidate: the form says what is missing itself, in the page's language; the browser's own
        // bubble would speak the browser's.
        <form className="stack" noValidate onSubmit={onSubmit} aria-describedby={unavailable ? `${id}-unavailable` : undefined}>
          <fieldset>
            <legend>{t('pickPhotos')}</legend>
            <ul className="choice-grid" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {originals.map((image) => {
                const label = photoLabel(image.id);
                const checked = selected.has(image.id);
                const small = isTooSmallToStage(image.width, image.height);
                return (
                  <li key={image.id} className="stack" style={{ gap: '0.4rem' }}>
                    <label className="choice">
                      <input
                        type="checkbox"
                        checked={checked}
                        aria-describedby={small ? smallWarningId(image.id) : undefined}
                        onChange={(event) =>
                          setSelected((old) => {
                            const next = new Set(old);
                            if (event.target.checked) next.add(image.id);
                            else next.delete(image.id);
                            return next;
                          })
                        }
                      />
                      <span className="choice-text">
                        <img src={image.thumbnailUrl} alt="" width={120} height={80} style={{ objectFit: 'cover', borderRadius: 4 }} />
                        <strong>{label}</strong>
                      </span>
                    </label>
                    {small && (
                      // Present before the photo is picked, so picking it is announced.
                      <p className="small" style={{ margin: 0 }} id={smallWarningId(image.id)} aria-live="polite" data-testid="stage-small-photo">
                        {checked && (
                          <>
                            <span className="status status-wait">{tp('smallForStaging')}</span>{' '}
                            {tp('smallDetail', { width: String(image.width), height: String(image.height), min: String(MIN_STAGING_SHORT_EDGE) })}
                          </>
                        )}
                      </p>
                    )}
                    {checked && (
                      <div className="field">
                        <label htmlFor={roomSelectId(image.id)}>{t('roomTypeFor', { photo: label })}</label>
                        <select
                          id={roomSelectId(image.id)}
                          value={roomTypeOf(image.id)}
                          required
                          aria-invalid={invalidRoom === image.id ? true : undefined}
                          aria-describedby={invalidRoom === image.id ? `${id}-form-error` : undefined}
                          onChange={(event) => setRoomTypes({ ...roomTypes, [image.id]: event.target.value as RoomType | '' })}
                        >
                          <option value="" disabled>
                            —
                          </option>
                          <RoomTypeOptions />
                        </select>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </fieldset>
          <fieldset>
            <legend>{t('style')}</legend>
            <div className="choice-grid">
              {CANONICAL_STYLES.map((value) => (
                <label key={value} className="choice">
                  <input type="radio" name={`${id}-style`} value={value} checked={style === value} onChange={() => setStyle(value)} />
                  <span className="choice-text">
                    <strong>{styleLabel(value, locale)}</strong>
                    <span className="small muted">{styleDescription(value, locale)}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <AlertMessage message={formError} id={`${id}-form-error`} />
          {submit.isError && !unavailable && (
            <p className="alert alert-error" role="alert" ref={errorFocus.ref} tabIndex={-1}>
              {errorSentence(submit.error)}
            </p>
          )}
          <PriceEstimate
            priceMicrousd={priceMicrousd}
            selected={chosen.length}
            toStage={plan.toStage.length}
            alreadyStaged={{ photos: plan.alreadyStaged.map(photoLabel), style: style === '' ? '' : styleLabel(style, locale) }}
          />
          <div>
            <button
              type="submit"
              className="button button-primary"
              aria-disabled={unavailable || submit.isPending}
              disabled={submit.isPending}
            >
              {submit.isPending ? t('submitting') : t('submit')}
            </button>
          </div>
        </form>
      )}
      {results !== undefined && (
        <div className="section" aria-live="polite">
          <h3 ref={resultFocus.ref} tabIndex={-1} data-testid="stage-results-title">
            {t('resultsTitle')}
          </h3>
          <ul className="stack" style={{ paddingLeft: '1.25rem' }} data-testid="stage-results">
            {results.items.map((item) => (
              <li key={`${item.originalImageId}-${item.canonicalStyle}`} data-disposition={item.disposition}>
                <strong>
                  {results.names[item.originalImageId] ?? item.originalImageId} · {styleLabel(item.canonicalStyle, locale)}:
                </strong>{' '}
                {t(DISPOSITION_KEYS[item.disposition])}
                {item.disposition === STAGING_DISPOSITIONS.STYLE_EXISTS && <ExistingVariantLink variant={variantOf(item.originalImageId, item.canonicalStyle)} />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
