'use client';

import { useTranslations } from 'next-intl';
import { isTooSmallToStage, MIN_STAGING_SHORT_EDGE } from '@staging/domain/photo-upload';
import { isRoomType, type RoomType } from '@staging/domain/room-types';
import type { RouterOutputs } from '@staging/trpc/root';
import { RoomTypeOptions } from '../vocabulary-options';

type AgentImage = RouterOutputs['property']['get']['images'][number];

/**
 * One original to pick, with a warning when it is too small to stage well and, once picked, its
 * room type.
 */
export function StagePhotoChoice({
  image,
  label,
  checked,
  roomType,
  roomSelectId,
  smallWarningId,
  invalidDescribedBy,
  onCheck,
  onRoomType,
}: {
  image: AgentImage;
  label: string;
  checked: boolean;
  roomType: RoomType | '';
  roomSelectId: string;
  smallWarningId: string;
  /** The id of the message about this photo's missing room type, while it is shown. */
  invalidDescribedBy: string | undefined;
  onCheck: (checked: boolean) => void;
  onRoomType: (roomType: RoomType | '') => void;
}) {
  const t = useTranslations('stage');
  const tp = useTranslations('photos');
  const small = isTooSmallToStage(image.width, image.height);
  return (
    <li className="stack" style={{ gap: '0.4rem' }}>
      <label className="choice">
        <input
          type="checkbox"
          checked={checked}
          aria-describedby={small ? smallWarningId : undefined}
          onChange={(event) => onCheck(event.target.checked)}
        />
        <span className="choice-text">
          <img src={image.thumbnailUrl} alt="" width={120} height={80} style={{ objectFit: 'cover', borderRadius: 4 }} />
          <strong>{label}</strong>
        </span>
      </label>
      {small && (
        // Present before the photo is picked, so picking it is announced.
        <p className="small" style={{ margin: 0 }} id={smallWarningId} aria-live="polite" data-testid="stage-small-photo">
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
          <label htmlFor={roomSelectId}>{t('roomTypeFor', { photo: label })}</label>
          <select
            id={roomSelectId}
            value={roomType}
            required
            aria-invalid={invalidDescribedBy === undefined ? undefined : true}
            aria-describedby={invalidDescribedBy}
            onChange={(event) => onRoomType(isRoomType(event.target.value) ? event.target.value : '')}
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
}
