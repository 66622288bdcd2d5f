'use client';

import { useId, type FormEvent } from 'react';
import { styleLabel } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { PriceEstimate } from './price-estimate';
import { StagePhotoPicker } from './stage-photo-picker';
import { StageResults } from './stage-results';
import { StageStyleChoice } from './stage-style-choice';
import { UnavailableNotice } from './unavailable-notice';
import { useStageChoices } from './use-stage-choices';
import { useStagePhotoLabel } from './use-stage-photo-label';
import { useStageSubmit } from './use-stage-submit';
import { useStageValidation } from './use-stage-validation';

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
  const id = useId();
  const choices = useStageChoices(property);
  const { originals, chosen, style } = choices;
  const photoLabel = useStagePhotoLabel(originals);
  const submit = useStageSubmit({ propertyId: property.id, stagingEnabled, photoLabel, onSubmitted: choices.clear });
  const { unavailable } = submit;
  const roomSelectId = (imageId: string) => `${id}-room-${imageId}`;
  const validation = useStageValidation({ choices, photoLabel, roomSelectId });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The flag is off: show why and send nothing at all.
    if (unavailable) return submit.showNotice();
    if (validation.check()) submit.send(choices.assignments());
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
          <StagePhotoPicker
            id={id}
            choices={choices}
            photoLabel={photoLabel}
            roomSelectId={roomSelectId}
            invalidRoom={validation.invalidRoom}
            formErrorId={`${id}-form-error`}
          />
          <StageStyleChoice name={`${id}-style`} style={style} onChange={choices.setStyle} />
          <AlertMessage message={validation.formError} id={`${id}-form-error`} />
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
