'use client';

import { useState } from 'react';
import { isRoomType, roomTypeLabel } from '@staging/domain/room-types';
import { publicDerivativeUrl, type PublicImageDto } from '@staging/services/public/public-images';

/** Tiles show the display-size copy (at most 2048 px, no metadata, cached for a year), not the stored photo. */
function tileUrl(imageId: string): string {
  return publicDerivativeUrl(imageId, 'display');
}

function roomLabel(roomType: string | null): string {
  return isRoomType(roomType) ? roomTypeLabel(roomType, 'en') : 'Photo';
}

/** A staged image with its disclosure label and a toggle to the unaltered photo. */
function StagedPhoto({ image, title }: { image: PublicImageDto; title: string }) {
  const [showOriginal, setShowOriginal] = useState(false);
  const showing = showOriginal && image.originalUrl !== null;
  return (
    <figure className="card photo-card" style={{ margin: 0 }} data-testid="staged-photo">
      <div className="photo-frame">
        <img
          src={tileUrl(showing ? (image.originalImageId ?? image.id) : image.id)}
          alt={showing ? `${title}: original photo of the ${roomLabel(image.roomType).toLowerCase()}` : `${title}: ${roomLabel(image.roomType).toLowerCase()}, virtually staged`}
          loading="lazy"
        />
        {!showing && <span className="photo-label">{image.label}</span>}
      </div>
      <figcaption className="row" style={{ justifyContent: 'space-between' }}>
        <span>
          {roomLabel(image.roomType)}
          {showing ? ' · original photo' : ` · ${image.label ?? ''}`}
        </span>
        {image.originalUrl !== null && (
          <button type="button" className="button button-small" aria-pressed={showOriginal} onClick={() => setShowOriginal(!showOriginal)}>
            {showOriginal ? 'See staged version' : 'See original'}
          </button>
        )}
      </figcaption>
    </figure>
  );
}

export function PublicGallery({ title, originals, staged }: { title: string; originals: PublicImageDto[]; staged: PublicImageDto[] }) {
  return (
    <>
      <section className="section" aria-labelledby="photos-title">
        <h2 id="photos-title">Photos</h2>
        <ul className="grid" style={{ listStyle: 'none', padding: 0 }}>
          {originals.map((image) => (
            <li key={image.id}>
              <figure className="card photo-card" style={{ margin: 0 }} data-testid="original-photo">
                <div className="photo-frame">
                  <img src={tileUrl(image.id)} alt={`${title}: ${roomLabel(image.roomType).toLowerCase()}`} loading="lazy" />
                </div>
                <figcaption>{roomLabel(image.roomType)}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>
      {staged.length > 0 && (
        <section className="section" aria-labelledby="staged-title">
          <h2 id="staged-title">Virtually staged</h2>
          <p className="muted small">These photos were furnished by AI to show how the rooms could look. Use “See original” for the unaltered photo.</p>
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
