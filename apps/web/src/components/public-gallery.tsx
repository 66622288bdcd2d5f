'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { publicDerivativeUrl, type PublicImageDto } from '@staging/services/public/public-images';
import { useRoomTypeLabel } from '@/client/use-room-type-label';

/** Tiles show the display-size copy (at most 2048 px, no metadata, cached for a year), not the stored photo. */
function tileUrl(imageId: string): string {
  return publicDerivativeUrl(imageId, 'display');
}

/** The room a photo shows, or plain "Photo" when the agent did not say. */
function useRoomLabel(): (roomType: string | null) => string {
  const t = useTranslations('listing');
  const roomTypeLabel = useRoomTypeLabel();
  return (roomType) => roomTypeLabel(roomType) ?? t('photo');
}

/** A staged image with its disclosure label and a toggle to the unaltered photo. */
function StagedPhoto({ image, title }: { image: PublicImageDto; title: string }) {
  const t = useTranslations('listing');
  const roomLabel = useRoomLabel();
  const [showOriginal, setShowOriginal] = useState(false);
  const showing = showOriginal && image.originalUrl !== null;
  return (
    <figure className="card photo-card" style={{ margin: 0 }} data-testid="staged-photo">
      <div className="photo-frame">
        <img
          src={tileUrl(showing ? (image.originalImageId ?? image.id) : image.id)}
          alt={t(showing ? 'originalAlt' : 'stagedAlt', { title, room: roomLabel(image.roomType).toLocaleLowerCase() })}
          loading="lazy"
        />
        {!showing && <span className="photo-label">{t('disclosure')}</span>}
      </div>
      <figcaption className="row" style={{ justifyContent: 'space-between' }}>
        <span>
          {roomLabel(image.roomType)}
          {` · ${showing ? t('originalCaption') : t('disclosure')}`}
        </span>
        {image.originalUrl !== null && (
          <button type="button" className="button button-small" aria-pressed={showOriginal} onClick={() => setShowOriginal(!showOriginal)}>
            {showOriginal ? t('seeStaged') : t('seeOriginal')}
          </button>
        )}
      </figcaption>
    </figure>
  );
}

export function PublicGallery({ title, originals, staged }: { title: string; originals: PublicImageDto[]; staged: PublicImageDto[] }) {
  const t = useTranslations('listing');
  const roomLabel = useRoomLabel();
  return (
    <>
      <section className="section" aria-labelledby="photos-title">
        <h2 id="photos-title">{t('photos')}</h2>
        <ul className="grid" style={{ listStyle: 'none', padding: 0 }}>
          {originals.map((image) => (
            <li key={image.id}>
              <figure className="card photo-card" style={{ margin: 0 }} data-testid="original-photo">
                <div className="photo-frame">
                  <img src={tileUrl(image.id)} alt={t('photoAlt', { title, room: roomLabel(image.roomType).toLocaleLowerCase() })} loading="lazy" />
                </div>
                <figcaption>{roomLabel(image.roomType)}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>
      {staged.length > 0 && (
        <section className="section" aria-labelledby="staged-title">
          <h2 id="staged-title">{t('staged')}</h2>
          <p className="muted small">{t('stagedIntro')}</p>
          <ul className="grid" style={{ listStyle: 'none', padding: 0 }}>
            {staged.map((image) => (
              <li key={image.id}>
                <StagedPhoto image={image} title={title} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
