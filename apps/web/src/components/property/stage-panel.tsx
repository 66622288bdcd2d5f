'use client';

import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { styleLabel } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { PriceEstimate } from './price-estimate';
import { StagePhotoChoice } from './stage-photo-choice';
import { StageResults } from './stage-results';
import { StageStyleChoice } from './stage-style-choice';
import { UnavailableNotice } from './unavailable-notice';
import { useStageChoices } from './use-stage-choices';
import { useStageSubmit } from './use-stage-submit';

type AgentProperty = RouterOutputs['property']['get'];

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
  const { t, locale, errorSentence } = useDashboardText('stage');
  const tp = useTranslations('photos');
  const id = useId();
  const choices = useStageChoices(property);
  const { originals, chosen, style, roomMissing } = choices;
  // After a refused submit the form says what is missing and follows the selection from then on:
  // the message goes the moment the selection can be staged, and comes back if it stops being so.
  const [validating, setValidating] = useState(false);

  // Photos go by their file name; "Photo N" only for those stored before names were kept.
  const photoLabel = (imageId: string): string => {
    const index = originals.findIndex((image) => image.id === imageId);
    return index === -1 ? imageId : (originals[index]?.fileName ?? tp('numbered', { index: index + 1 }));
  };
  const submit = useStageSubmit({ propertyId: property.id, stagingEnabled, photoLabel, onSubmitted: choices.clear });
  const { unavailable } = submit;

  /** What the selection lacks before it can be staged, or undefined. */
  const missing = (): string | undefined => {
    if (chosen.length === 0 || style === '') return t('pickAtLeastOne');
    return roomMissing === undefined ? undefined : t('roomTypeMissing', { photo: photoLabel(roomMissing.id) });
  };
  const formError = validating ? missing() : undefined;
  // The room type the message is about: marked invalid and described by it.
  const invalidRoom = validating ? roomMissing?.id : undefined;
  const roomSelectId = (imageId: string) => `${id}-room-${imageId}`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The flag is off: show why and send nothing at all.
    if (unavailable) return submit.showNotice();
    const invalid = missing() !== undefined;
    setValidating(invalid);
    // The agent goes straight to the field to fix.
    if (roomMissing !== undefined) document.getElementById(roomSelectId(roomMissing.id))?.focus();
    // (The empty style again only for the type checker: missing() has refused it already.)
    if (invalid || style === '') return;
    // missing() has refused an empty room type too, so every chosen photo has one.
    submit.send(
      chosen.flatMap((image) => {
        const roomType = choices.roomTypeOf(image.id);
        return roomType === '' ? [] : [{ originalImageId: image.id, roomType, style }];
      }),
    );
  };

  return (
    <section className="card section" id="stage-panel" tabIndex={-1} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('title')}</h2>
      {unavailable && <UnavailableNotice id={`${id}-unavailable`} ref={submit.noticeRef} />}
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
              {originals.map((image) => (
                <StagePhotoChoice
                  key={image.id}
                  image={image}
                  label={photoLabel(image.id)}
                  checked={choices.selected.has(image.id)}
                  roomType={choices.roomTypeOf(image.id)}
                  roomSelectId={roomSelectId(image.id)}
                  smallWarningId={`${id}-small-${image.id}`}
                  invalidDescribedBy={invalidRoom === image.id ? `${id}-form-error` : undefined}
                  onCheck={(checked) => choices.pick(image.id, checked)}
                  onRoomType={(roomType) => choices.chooseRoomType(image.id, roomType)}
                />
              ))}
            </ul>
          </fieldset>
          <StageStyleChoice name={`${id}-style`} style={style} onChange={choices.setStyle} />
          <AlertMessage message={formError} id={`${id}-form-error`} />
          {submit.error !== undefined && !unavailable && (
            <p className="alert alert-error" role="alert" ref={submit.errorRef} tabIndex={-1}>
              {errorSentence(submit.error)}
            </p>
          )}
          <PriceEstimate
            priceMicrousd={priceMicrousd}
            selected={chosen.length}
            toStage={choices.plan.toStage.length}
            alreadyStaged={{ photos: choices.plan.alreadyStaged.map(photoLabel), style: style === '' ? '' : styleLabel(style, locale) }}
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
      {submit.results !== undefined && <StageResults ref={submit.resultRef} results={submit.results} images={property.images} />}
    </section>
  );
}
