'use client';

import { useTranslations } from 'next-intl';
import { useId, useRef, useState } from 'react';
import { publicCoverOf } from '@staging/domain/listing-cover';
import type { RouterOutputs } from '@staging/trpc/root';
import { deleteImage } from '@/client/image-api';
import { useTRPCClient } from '@/client/trpc';
import { useErrorSentence } from '@/client/use-error-sentence';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { AlertMessage } from '@/components/alert-message';
import { Switch } from '@/components/switch';
import { OriginalCard } from './original-card';
import { PhotoUpload } from './photo-upload';
import { useRefreshProperty } from './use-refresh-property';

type AgentProperty = RouterOutputs['property']['get'];
type AgentImage = AgentProperty['images'][number];

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
