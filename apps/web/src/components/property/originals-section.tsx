'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { publicCoverOf } from '@staging/domain/listing-cover';
import { isTooSmallToStage, MIN_STAGING_SHORT_EDGE } from '@staging/domain/photo-upload';
import type { RouterOutputs } from '@staging/trpc/root';
import { deleteImage, updateImage } from '@/client/image-api';
import { useTRPC, useTRPCClient } from '@/client/trpc';
import { useErrorSentence } from '@/client/use-error-sentence';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { AlertMessage } from '@/components/alert-message';
import { Switch } from '@/components/switch';
import { PhotoUpload } from './photo-upload';
import { RoomTypeOptions } from '../vocabulary-options';

type AgentProperty = RouterOutputs['property']['get'];
type AgentImage = AgentProperty['images'][number];

function useRefreshProperty(propertyId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.property.get.queryKey({ propertyId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.property.list.queryKey() }),
    ]);
}

function OriginalCard({
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
  const errorSentence = useErrorSentence();
  const { styleName } = usePhotoNaming();
  const refresh = useRefreshProperty(propertyId);
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: 'roomType' | 'cover' | 'public'; message: string } | undefined>();
  const isPublic = image.isPublic === true;

  const change = async (field: 'roomType' | 'cover' | 'public', action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      await refresh();
    } catch (failure) {
      setError({ field, message: errorSentence(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="card photo-card" data-testid="original-card" data-image-id={image.id}>
      <div className="photo-frame">
        <img src={image.thumbnailUrl} alt={t('originalAlt', { name })} loading="lazy" />
        {isCover && <span className="cover-flag">{t('cover')}</span>}
        {!isPublic && (
          <span className="photo-label" data-testid="hidden-flag">
            {t('hidden')}
          </span>
        )}
      </div>
      <h3 style={{ margin: 0, overflowWrap: 'anywhere' }}>{name}</h3>
      {isTooSmallToStage(image.width, image.height) && (
        <p className="small" style={{ margin: 0 }} data-testid="small-photo-warning">
          <span className="status status-wait">{t('smallForStaging')}</span>{' '}
          {t('smallDetail', { width: String(image.width), height: String(image.height), min: String(MIN_STAGING_SHORT_EDGE) })}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-room`}>{t('roomType')}</label>
        <select
          id={`${id}-room`}
          value={image.roomType ?? ''}
          disabled={busy}
          aria-describedby={error?.field === 'roomType' ? `${id}-room-error` : undefined}
          onChange={(event) => {
            const roomType = event.target.value === '' ? null : event.target.value;
            void change('roomType', () => updateImage(image.id, { roomType }));
          }}
        >
          <option value="">{t('notSet')}</option>
          <RoomTypeOptions />
        </select>
        {error?.field === 'roomType' && (
          <span className="field-error" id={`${id}-room-error`} role="alert">
            {error.message}
          </span>
        )}
      </div>
      <Switch
        checked={isPublic}
        disabled={busy}
        describedBy={error?.field === 'public' ? `${id}-public-error` : undefined}
        onChange={(next) => change('public', () => client.property.setImagePublic.mutate({ imageId: image.id, isPublic: next }))}
      >
        {t('publicSwitch')}
        <span className="visually-hidden"> ({name})</span>
      </Switch>
      {error?.field === 'public' && (
        <span className="field-error" id={`${id}-public-error`} role="alert">
          {error.message}
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
      <AlertMessage message={error?.field === 'cover' ? error.message : undefined} />
      <div>
        <h4 style={{ margin: '0.25rem 0' }}>{t('variants', { count: variants.length })}</h4>
        {variants.length === 0 ? (
          <p className="muted small" style={{ margin: 0 }}>
            {t('noVariants')}
          </p>
        ) : (
          <ul className="variant-strip" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {variants.map((variant) => (
              <li key={variant.id} data-testid="variant" data-review-status={variant.reviewStatus ?? ''}>
                <div className="photo-frame">
                  <img src={variant.thumbnailUrl} alt={t('variantAlt', { name, style: styleName(variant.canonicalStyle ?? variant.style) })} loading="lazy" />
                </div>
                <p className="small" style={{ margin: '0.25rem 0 0' }}>
                  {styleName(variant.canonicalStyle ?? variant.style)} ·{' '}
                  {variant.reviewStatus === 'APPROVED' ? (
                    <span className="status status-ok">{t('approved')}</span>
                  ) : (
                    <Link href={`/review?image=${encodeURIComponent(variant.id)}`} className="status status-wait">
                      {t('waitingForReview')}
                    </Link>
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}

/**
 * Whether photos uploaded from now on go on the public page at once (property.setNewImagesPublic),
 * with how many of the photos are there now.
 */
function NewPhotosDefault({
  property,
  originals,
  onSave,
}: {
  property: AgentProperty;
  originals: AgentImage[];
  /** Told of each save as it starts: it settles once the server has answered. */
  onSave: (saved: Promise<unknown>) => void;
}) {
  const id = useId();
  const t = useTranslations('photos');
  const tp = useTranslations('property');
  const errorSentence = useErrorSentence();
  const refresh = useRefreshProperty(property.id);
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const set = async (newImagesPublic: boolean) => {
    setBusy(true);
    setError(undefined);
    try {
      const saving = client.property.setNewImagesPublic.mutate({ propertyId: property.id, newImagesPublic });
      onSave(saving.catch(() => undefined));
      await saving;
      await refresh();
    } catch (failure) {
      setError(errorSentence(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card stack" style={{ gap: '0.25rem', marginBottom: '0.75rem' }} aria-labelledby={`${id}-title`} data-testid="public-page-default">
      <h3 id={`${id}-title`} style={{ margin: 0 }}>
        {tp('publicPage')}
      </h3>
      <p className="small" style={{ margin: 0 }} data-testid="public-count">
        {t('publicCount', { shown: originals.filter((image) => image.isPublic === true).length, total: originals.length })}
      </p>
      <Switch checked={property.newImagesPublic} disabled={busy} describedBy={`${id}-hint`} onChange={set}>
        {t('newPhotosPublic')}
      </Switch>
      <p className="muted small" id={`${id}-hint`} style={{ margin: 0 }}>
        {t('newPhotosPublicHint')}
      </p>
      <AlertMessage message={error} />
    </section>
  );
}

/** Originals with upload, public-page switch, cover, room type and delete; staged variants grouped under each. */
export function OriginalsSection({ property }: { property: AgentProperty }) {
  const t = useTranslations('photos');
  const errorSentence = useErrorSentence();
  const { photoName } = usePhotoNaming();
  const refresh = useRefreshProperty(property.id);
  const [deleting, setDeleting] = useState<AgentImage | undefined>();
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const [deleteBusy, setDeleteBusy] = useState(false);
  // The api reads the new-photos default when a photo arrives, so an upload started while a change
  // of it is on its way must wait for the save, or the photo gets the old default.
  const defaultSaved = useRef<Promise<unknown>>(Promise.resolve());
  const originals = property.images.filter((image) => !image.isStyled);
  const coverId = publicCoverOf(originals)?.id;
  const variantsOf = (originalId: string) => property.images.filter((image) => image.isStyled && image.styledFromId === originalId);

  const confirmDelete = async () => {
    if (deleting === undefined) return;
    setDeleteBusy(true);
    setDeleteError(undefined);
    try {
      await deleteImage(deleting.id);
      setDeleting(undefined);
      await refresh();
    } catch (failure) {
      setDeleteError(errorSentence(failure));
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <section className="section" aria-labelledby="originals-title">
      <h2 id="originals-title">{t('title')}</h2>
      <NewPhotosDefault
        property={property}
        originals={originals}
        onSave={(saved) => {
          defaultSaved.current = saved;
        }}
      />
      <PhotoUpload propertyId={property.id} onUploaded={refresh} settingsSaved={() => defaultSaved.current} />
      {originals.length === 0 ? (
        <p>{t('empty')}</p>
      ) : (
        <ul className="grid" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('title')}>
          {originals.map((image) => (
            <OriginalCard
              key={image.id}
              image={image}
              name={photoName(originals, image.id)}
              isCover={image.id === coverId}
              variants={variantsOf(image.id)}
              propertyId={property.id}
              onDelete={(target) => {
                setDeleteError(undefined);
                setDeleting(target);
              }}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('deleteTitle', { name: deleting === undefined ? '' : photoName(originals, deleting.id) })}
        confirmLabel={t('deleteConfirm')}
        danger
        busy={deleteBusy}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(undefined)}
      >
        <p>{t('deleteBody')}</p>
      </ConfirmDialog>
    </section>
  );
}
