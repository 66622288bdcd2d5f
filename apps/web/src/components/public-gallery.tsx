'use client';

import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import type { PublicImageDto } from '@staging/contracts/public';
import { publicDerivativeUrl } from '@staging/services/public/public-images';
import { useRoomTypeLabel } from '@/client/use-room-type-label';
import { ImageLightbox, useLightboxSequence, type LightboxImage } from '@/components/review/image-lightbox';
import '@/components/review/review.css';
import styles from './public-gallery.module.css';

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

type Open = (image: LightboxImage) => void;

function lightboxImageOf(image: PublicImageDto, alt: string, title: string): LightboxImage {
  return { url: image.url, width: image.width, height: image.height, alt, title };
}

/** A photo that opens larger in the lightbox; the button is named after what it shows. */
function OpenablePhoto({
  image,
  alt,
  title,
  src,
  onOpen,
  className,
}: {
  image: PublicImageDto;
  alt: string;
  title: string;
  src: string;
  onOpen: Open;
  className?: string;
}) {
  const t = useTranslations('listing');
  return (
    <button
      type="button"
      className={className ?? styles.open}
      aria-haspopup="dialog"
      aria-label={t('enlarge', { photo: alt })}
      onClick={() => onOpen(lightboxImageOf(image, alt, title))}
    >
      <img src={src} alt={alt} width={image.width} height={image.height} loading="lazy" />
    </button>
  );
}

/**
 * An approved staged version beside its original: the disclosure label on the photo and in its
 * caption, and a toggle to the unaltered photo in the same place (on a phone the two are stacked,
 * so the toggle compares without scrolling).
 */
function StagedPhoto({ image, original, title, onOpen }: { image: PublicImageDto; original: PublicImageDto; title: string; onOpen: Open }) {
  const t = useTranslations('listing');
  const roomLabel = useRoomLabel();
  const [showOriginal, setShowOriginal] = useState(false);
  const room = roomLabel(original.roomType);
  const shown = showOriginal ? original : image;
  const alt = t(showOriginal ? 'originalAlt' : 'stagedAlt', { title, room: room.toLocaleLowerCase() });
  return (
    <figure className="card photo-card" style={{ margin: 0 }} data-testid="staged-photo" data-image-id={image.id}>
      <div className="photo-frame">
        <OpenablePhoto image={shown} alt={alt} title={showOriginal ? room : `${room} · ${t('disclosure')}`} src={tileUrl(shown.id)} onOpen={onOpen} />
        {!showOriginal && <span className="photo-label">{t('disclosure')}</span>}
      </div>
      <figcaption className="row" style={{ justifyContent: 'space-between' }}>
        <span>{`${room} · ${showOriginal ? t('originalCaption') : t('disclosure')}`}</span>
        <button type="button" className="button button-small" aria-pressed={showOriginal} onClick={() => setShowOriginal(!showOriginal)}>
          {showOriginal ? t('seeStaged') : t('seeOriginal')}
        </button>
      </figcaption>
    </figure>
  );
}

/**
 * The public listing's photos: the cover whole (never cropped into a banner), `children` (the
 * description), then each original with its approved staged versions beside it. Every photo opens
 * larger in a modal lightbox (Escape closes it and focus returns to the photo).
 */
export function PublicGallery({
  title,
  cover,
  images,
  children,
}: {
  title: string;
  cover: PublicImageDto | null;
  images: PublicImageDto[];
  children?: ReactNode;
}) {
  const t = useTranslations('listing');
  const roomLabel = useRoomLabel();
  const originals = images.filter((image) => !image.isStyled);
  const stagedOf = (originalId: string) => images.filter((image) => image.isStyled && image.originalImageId === originalId);
  // Previous and next in the lightbox go through the photos in page order, each original and then
  // its staged versions.
  const { open: setOpen, lightbox } = useLightboxSequence(
    originals.flatMap((original) => {
      const room = roomLabel(original.roomType);
      return [
        lightboxImageOf(original, t('photoAlt', { title, room: room.toLocaleLowerCase() }), room),
        ...stagedOf(original.id).map((image) => lightboxImageOf(image, t('stagedAlt', { title, room: room.toLocaleLowerCase() }), `${room} · ${t('disclosure')}`)),
      ];
    }),
  );
  const hasStaged = images.some((image) => image.isStyled);
  return (
    <>
      {cover !== null && (
        <figure className={styles.hero} data-testid="cover">
          <OpenablePhoto
            image={cover}
            alt={t('coverAlt', { title })}
            title={title}
            src={cover.url}
            onOpen={setOpen}
            className={styles.heroOpen}
          />
        </figure>
      )}
      {children}
      <section className="section" aria-labelledby="photos-title">
        <h2 id="photos-title">{t('photos')}</h2>
        {hasStaged && <p className="muted small">{t('stagedIntro')}</p>}
        <ul className={`grid ${styles.gallery}`}>
          {originals.map((original) => {
            const staged = stagedOf(original.id);
            const room = roomLabel(original.roomType);
            const alt = t('photoAlt', { title, room: room.toLocaleLowerCase() });
            return (
              <li key={original.id} className={staged.length > 0 ? styles.withStaged : undefined} data-testid="photo-group">
                <figure className="card photo-card" style={{ margin: 0 }} data-testid="original-photo" data-image-id={original.id}>
                  <div className="photo-frame">
                    <OpenablePhoto image={original} alt={alt} title={room} src={tileUrl(original.id)} onOpen={setOpen} />
                  </div>
                  <figcaption>{room}</figcaption>
                </figure>
                {staged.map((image) => (
                  <StagedPhoto key={image.id} image={image} original={original} title={title} onOpen={setOpen} />
                ))}
              </li>
            );
          })}
        </ul>
      </section>
      <ImageLightbox {...lightbox} />
    </>
  );
}
