import type { Locale } from '@staging/domain/locale';
import type { StagingDisposition } from '@staging/domain/dispositions';
import type { JobStatus } from '@staging/domain/staging-states';

/**
 * UI text of the staging flow and the jobs panel in every shipped language. Statuses and
 * dispositions are decoded one to one (SPEC.md 7: never relabel a terminal state as another).
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
};

export const STAGING_MESSAGES: Readonly<Record<Locale, StagingMessages>> = { en, es };
