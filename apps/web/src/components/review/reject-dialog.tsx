'use client';

import { useTranslations } from 'next-intl';
import { useErrorSentence } from '@/client/use-error-sentence';
import { usePhotoNaming } from '@/client/use-photo-naming';
import { AlertMessage } from '@/components/alert-message';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { RejectFlow } from './use-reject-flow';

/** The confirmation of a rejection or take-down, with its reason; `id` prefixes the field's ids. */
export function RejectDialog({ id, flow }: { id: string; flow: RejectFlow }) {
  const t = useTranslations('review');
  const errorSentence = useErrorSentence();
  const { styleName } = usePhotoNaming();
  const { request, reason, reasonMissing } = flow;
  const rejectItems = request?.items ?? [];
  const [first] = rejectItems;
  return (
    <ConfirmDialog
      open={request !== undefined}
      title={
        request?.takeDown === true
          ? t('takeDownTitle', { name: first?.name ?? '', style: styleName(first?.variant.canonicalStyle ?? null) })
          : rejectItems.length === 1 && first !== undefined
            ? t('rejectOneTitle', { name: first.name, style: styleName(first.variant.canonicalStyle ?? first.variant.style) })
            : t('rejectManyTitle', { count: rejectItems.length })
      }
      confirmLabel={request?.takeDown === true ? t('takeDownConfirm') : rejectItems.length === 1 ? t('rejectOneConfirm') : t('rejectManyConfirm')}
      danger
      busy={flow.isPending}
      error={flow.error === undefined ? undefined : errorSentence(flow.error)}
      onConfirm={flow.confirm}
      onCancel={flow.cancel}
    >
      <p>
        {request?.takeDown === true
          ? t('takeDownBody')
          : t('rejectBody')}
      </p>
      <div className="field">
        <label htmlFor={`${id}-reason`}>{request?.takeDown === true ? t('reasonRequired') : t('reasonOptional')}</label>
        <textarea
          id={`${id}-reason`}
          ref={flow.reasonRef}
          rows={3}
          maxLength={500}
          required={request?.takeDown === true}
          aria-invalid={reasonMissing || undefined}
          aria-describedby={reasonMissing ? `${id}-reason-error` : undefined}
          value={reason}
          onChange={(event) => flow.changeReason(event.target.value)}
        />
        <AlertMessage message={reasonMissing ? t('reasonMissing') : undefined} id={`${id}-reason-error`} />
      </div>
    </ConfirmDialog>
  );
}
