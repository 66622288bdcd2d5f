'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { isTooSmallToStage, MIN_STAGING_SHORT_EDGE } from '@staging/domain/photo-upload';
import type { RouterOutputs } from '@staging/trpc/root';
import { updateImage } from '@/client/image-api';
import { useTRPCClient } from '@/client/trpc';
import { AlertMessage } from '@/components/alert-message';
import { Switch } from '@/components/switch';
import { RoomTypeOptions } from '../vocabulary-options';
import { usePhotoSettings } from './use-photo-settings';
import { VariantStrip } from './variant-strip';

type AgentImage = RouterOutputs['property']['get']['images'][number];

/** The photo itself, flagged when it is the cover or kept off the public page. */
function OriginalFrame({ image, name, isCover, isPublic }: { image: AgentImage; name: string; isCover: boolean; isPublic: boolean }) {
  const t = useTranslations('photos');
  return (
    <div className="photo-frame">
      <img src={image.thumbnailUrl} alt={t('originalAlt', { name })} loading="lazy" />
      {isCover && <span className="cover-flag">{t('cover')}</span>}
      {!isPublic && (
        <span className="photo-label" data-testid="hidden-flag">
          {t('hidden')}
        </span>
      )}
    </div>
  );
}

/** The room type of the photo, ids under `id`, with why its last change failed. */
function RoomTypeField({
  id,
  value,
  disabled,
  error,
  onChange,
}: {
  id: string;
  value: string | null;
  disabled: boolean;
  error: string | undefined;
  onChange: (roomType: string | null) => void;
}) {
  const t = useTranslations('photos');
  return (
    <div className="field">
      <label htmlFor={`${id}-room`}>{t('roomType')}</label>
      <select
        id={`${id}-room`}
        value={value ?? ''}
        disabled={disabled}
        aria-describedby={error === undefined ? undefined : `${id}-room-error`}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
      >
        <option value="">{t('notSet')}</option>
        <RoomTypeOptions />
      </select>
      {error !== undefined && (
        <span className="field-error" id={`${id}-room-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** One original with its settings (room type, public page, cover), its delete and its staged variants. */
export function OriginalCard({
  image,
  name,
  isCover,
  variants,
  propertyId,
  onDelete,
}: {
  image: AgentImage;
  name: string;
  /** The listing's cover as the public page shows it (publicCoverOf). */
  isCover: boolean;
  variants: AgentImage[];
  propertyId: string;
  onDelete: (image: AgentImage) => void;
}) {
  const id = useId();
  const t = useTranslations('photos');
  const tc = useTranslations('common');
  const client = useTRPCClient();
  const { busy, change, errorOf } = usePhotoSettings(propertyId);
  const isPublic = image.isPublic === true;
  const publicError = errorOf('public');

  return (
    <li className="card photo-card" data-testid="original-card" data-image-id={image.id}>
      <OriginalFrame image={image} name={name} isCover={isCover} isPublic={isPublic} />
      <h3 style={{ margin: 0, overflowWrap: 'anywhere' }}>{name}</h3>
      {isTooSmallToStage(image.width, image.height) && (
        <p className="small" style={{ margin: 0 }} data-testid="small-photo-warning">
          <span className="status status-wait">{t('smallForStaging')}</span>{' '}
          {t('smallDetail', { width: String(image.width), height: String(image.height), min: String(MIN_STAGING_SHORT_EDGE) })}
        </p>
      )}
      <RoomTypeField
        id={id}
        value={image.roomType}
        disabled={busy}
        error={errorOf('roomType')}
        onChange={(roomType) => void change('roomType', () => updateImage(image.id, { roomType }))}
      />
      <Switch
        checked={isPublic}
        disabled={busy}
        describedBy={publicError === undefined ? undefined : `${id}-public-error`}
        onChange={(next) => change('public', () => client.property.setImagePublic.mutate({ imageId: image.id, isPublic: next }))}
      >
        {t('publicSwitch')}
        <span className="visually-hidden"> ({name})</span>
      </Switch>
      {publicError !== undefined && (
        <span className="field-error" id={`${id}-public-error`} role="alert">
          {publicError}
        </span>
      )}
      <div className="row">
        {isPublic && !isCover && (
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() => void change('cover', () => client.property.setCover.mutate({ propertyId, imageId: image.id }))}
          >
            {t('setAsCover')}<span className="visually-hidden"> ({name})</span>
          </button>
        )}
        <button type="button" className="button button-small" disabled={busy} onClick={() => onDelete(image)}>
          {tc('delete')}<span className="visually-hidden"> {name}</span>
        </button>
      </div>
      <AlertMessage message={errorOf('cover')} />
      <VariantStrip name={name} variants={variants} />
    </li>
  );
}
