import type { Locale } from '@staging/domain/locale';
import type { StagingDisposition } from '@staging/domain/dispositions';
import type { JobOutcome } from '@staging/domain/job-outcome';
import type { JobStatus } from '@staging/domain/staging-states';

/**
 * UI text of the staging flow and the jobs panel in every shipped language. Statuses and
 * dispositions are decoded one to one (docs/system.md 7: never relabel a terminal state as another).
 */
export interface StagingMessages {
  stageTitle: string;
  stageIntro: string;
  unavailableTitle: string;
  unavailableBody: string;
  pickPhotos: string;
  noOriginals: string;
  roomTypeFor: (photo: string) => string;
  styleLegend: string;
  submit: string;
  submitting: string;
  pickAtLeastOne: string;
  resultsTitle: string;
  disposition: Record<StagingDisposition, string>;
  jobsTitle: string;
  jobsEmpty: string;
  status: Record<JobStatus, string>;
  providerDisabled: string;
  elapsed: string;
  attempt: (n: number) => string;
  noAttemptYet: string;
  cancel: string;
  canceling: string;
  errorCode: string;
  style: string;
  photo: (n: number) => string;
  costEstimate: string;
  /** The history's status pill: the job status, then the review of its result. */
  outcome: Record<JobOutcome, string>;
  created: string;
  finished: string;
  duration: string;
  attemptsUsed: (n: number) => string;
  noEstimate: string;
  failureReason: string;
  rejectionReason: string;
  openInReview: string;
  viewResult: string;
  newer: string;
  older: string;
  pageOf: (page: number) => string;
  retry: string;
  loadingJobs: string;
  photoOf: (title: string) => string;
  canceledNothingBought: string;
  canceledBought: (n: number) => string;
  canceledUnconfirmed: string;
  cancelRequestedBought: (n: number) => string;
  estimateBefore: (perPhoto: string, total: string, worst: string, photos: number) => string;
  estimatePerPhoto: (perPhoto: string, worst: string) => string;
  estimateUnset: string;
  estimateNote: string;
  reviewExisting: string;
}

const en: StagingMessages = {
  stageTitle: 'Stage photos',
  stageIntro: 'Pick empty-room photos, say which room each one shows, and choose one style. Results wait for your review before anyone else sees them.',
  unavailableTitle: 'AI staging is temporarily unavailable',
  unavailableBody: 'New staging requests are paused right now. Your photos, staged results and reviews are not affected. Please try again later.',
  pickPhotos: 'Photos to stage',
  noOriginals: 'Upload an original photo first.',
  roomTypeFor: (photo) => `Room type for ${photo}`,
  styleLegend: 'Style',
  submit: 'Stage selected photos',
  submitting: 'Submitting…',
  pickAtLeastOne: 'Select at least one photo and a style.',
  resultsTitle: 'Submitted',
  disposition: {
    ENQUEUED: 'Queued: a new staging job was started.',
    EXISTING: 'Already in progress: this photo and style are being staged; following that job.',
    style_exists: 'Already staged: a variant in this style exists for this photo. Reject it first to make a new one.',
  },
  jobsTitle: 'Staging jobs',
  jobsEmpty: 'No staging jobs yet.',
  status: {
    PENDING: 'Waiting to start',
    PROCESSING: 'Processing',
    RETRYING: 'Retrying',
    CANCEL_REQUESTED: 'Cancel requested',
    SUCCESS: 'Done: ready for review',
    CANCELED: 'Canceled',
    FAILED: 'Failed',
  },
  providerDisabled: 'Paused: AI staging is switched off; the job resumes when it is switched back on',
  elapsed: 'Elapsed',
  attempt: (n) => `Attempt ${n} of 2`,
  noAttemptYet: 'No attempt yet',
  cancel: 'Cancel',
  canceling: 'Canceling…',
  errorCode: 'Error',
  style: 'Style',
  photo: (n) => `Photo ${n}`,
  costEstimate: 'Cost estimate',
  outcome: {
    PENDING: 'Waiting to start',
    PROCESSING: 'Processing',
    RETRYING: 'Retrying',
    CANCEL_REQUESTED: 'Cancel requested',
    PENDING_REVIEW: 'Done: ready for review',
    APPROVED: 'Approved: published',
    REJECTED: 'Rejected',
    REMOVED: 'Result removed with its photo',
    CANCELED: 'Canceled',
    FAILED: 'Failed',
  },
  created: 'Submitted',
  finished: 'Finished',
  duration: 'Took',
  attemptsUsed: (n) => (n === 0 ? 'No attempt yet' : `Attempt ${n} of 2`),
  noEstimate: 'no estimate',
  failureReason: 'Why',
  rejectionReason: 'Reason',
  openInReview: 'Review it',
  viewResult: 'View result',
  newer: 'Newer',
  older: 'Older',
  pageOf: (page) => `Page ${page}`,
  retry: 'Try again',
  loadingJobs: 'Loading staging jobs…',
  photoOf: (title) => `Photo of ${title}`,
  canceledNothingBought: 'Canceled before anything was bought: this job cost nothing.',
  canceledBought: (n) => `Canceled. ${n === 1 ? 'One attempt had' : `${n} attempts had`} already been bought; its estimate stays in the spend.`,
  canceledUnconfirmed: 'Canceled. The AI service had not confirmed whether an attempt was bought; if it was, it shows in the spend.',
  cancelRequestedBought: (n) => `Cancel requested. ${n === 1 ? 'One attempt was' : `${n} attempts were`} already bought and cannot be refunded; nothing more will be bought.`,
  estimateBefore: (perPhoto, total, worst, photos) =>
    `Estimated price: ${total} for ${photos} photo${photos === 1 ? '' : 's'} (${perPhoto} each; up to ${worst} if a retry is needed).`,
  estimatePerPhoto: (perPhoto, worst) => `Estimated price: ${perPhoto} per photo (up to ${worst} if a retry is needed).`,
  estimateUnset: 'Estimated price: no estimate (prices are not configured).',
  estimateNote: 'Estimates only, from the configured prices; the provider’s bill is what counts.',
  reviewExisting: 'Open it in review to take it down.',
};

const es: StagingMessages = {
  stageTitle: 'Amueblar fotos',
  stageIntro: 'Elija fotos de habitaciones vacías, indique qué habitación muestra cada una y elija un estilo. Los resultados esperan su revisión antes de publicarse.',
  unavailableTitle: 'El amueblado con IA no está disponible temporalmente',
  unavailableBody: 'Las nuevas solicitudes están en pausa. Sus fotos, resultados y revisiones no se ven afectados. Vuelva a intentarlo más tarde.',
  pickPhotos: 'Fotos para amueblar',
  noOriginals: 'Primero suba una foto original.',
  roomTypeFor: (photo) => `Tipo de habitación de ${photo}`,
  styleLegend: 'Estilo',
  submit: 'Amueblar las fotos elegidas',
  submitting: 'Enviando…',
  pickAtLeastOne: 'Elija al menos una foto y un estilo.',
  resultsTitle: 'Enviado',
  disposition: {
    ENQUEUED: 'En cola: se inició un nuevo trabajo.',
    EXISTING: 'Ya en curso: esta foto y este estilo ya se están procesando; se sigue ese trabajo.',
    style_exists: 'Ya existe: hay una variante de este estilo para esta foto. Recházela primero para generar otra.',
  },
  jobsTitle: 'Trabajos de amueblado',
  jobsEmpty: 'Todavía no hay trabajos.',
  status: {
    PENDING: 'En espera',
    PROCESSING: 'Procesando',
    RETRYING: 'Reintentando',
    CANCEL_REQUESTED: 'Cancelación solicitada',
    SUCCESS: 'Listo: pendiente de revisión',
    CANCELED: 'Cancelado',
    FAILED: 'Fallido',
  },
  providerDisabled: 'En pausa: el amueblado con IA está desactivado; el trabajo continuará cuando se active',
  elapsed: 'Tiempo',
  attempt: (n) => `Intento ${n} de 2`,
  noAttemptYet: 'Sin intentos todavía',
  cancel: 'Cancelar',
  canceling: 'Cancelando…',
  errorCode: 'Error',
  style: 'Estilo',
  photo: (n) => `Foto ${n}`,
  costEstimate: 'Coste estimado',
  outcome: {
    PENDING: 'En espera',
    PROCESSING: 'Procesando',
    RETRYING: 'Reintentando',
    CANCEL_REQUESTED: 'Cancelación solicitada',
    PENDING_REVIEW: 'Listo: pendiente de revisión',
    APPROVED: 'Aprobado: publicado',
    REJECTED: 'Rechazado',
    REMOVED: 'Resultado eliminado con su foto',
    CANCELED: 'Cancelado',
    FAILED: 'Fallido',
  },
  created: 'Enviado',
  finished: 'Terminado',
  duration: 'Duración',
  attemptsUsed: (n) => (n === 0 ? 'Sin intentos todavía' : `Intento ${n} de 2`),
  noEstimate: 'sin estimación',
  failureReason: 'Motivo',
  rejectionReason: 'Motivo',
  openInReview: 'Revisarlo',
  viewResult: 'Ver resultado',
  newer: 'Más recientes',
  older: 'Anteriores',
  pageOf: (page) => `Página ${page}`,
  retry: 'Reintentar',
  loadingJobs: 'Cargando trabajos…',
  photoOf: (title) => `Foto de ${title}`,
  canceledNothingBought: 'Cancelado antes de comprar nada: este trabajo no costó nada.',
  canceledBought: (n) => `Cancelado. ${n === 1 ? 'Ya se había comprado un intento' : `Ya se habían comprado ${n} intentos`}; su estimación sigue en el gasto.`,
  canceledUnconfirmed: 'Cancelado. El servicio de IA no confirmó si se compró un intento; si se compró, aparece en el gasto.',
  cancelRequestedBought: (n) => `Cancelación solicitada. ${n === 1 ? 'Ya se compró un intento' : `Ya se compraron ${n} intentos`} y no se reembolsa; no se comprará nada más.`,
  estimateBefore: (perPhoto, total, worst, photos) =>
    `Precio estimado: ${total} por ${photos} foto${photos === 1 ? '' : 's'} (${perPhoto} cada una; hasta ${worst} si hace falta reintentar).`,
  estimatePerPhoto: (perPhoto, worst) => `Precio estimado: ${perPhoto} por foto (hasta ${worst} si hace falta reintentar).`,
  estimateUnset: 'Precio estimado: sin estimación (los precios no están configurados).',
  estimateNote: 'Solo estimaciones según los precios configurados; lo que cuenta es la factura del proveedor.',
  reviewExisting: 'Ábrala en revisión para retirarla.',
};

export const STAGING_MESSAGES: Readonly<Record<Locale, StagingMessages>> = { en, es };
