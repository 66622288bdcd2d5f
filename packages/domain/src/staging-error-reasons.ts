import type { Locale } from './locale';
import { isStagingErrorCode } from './staging-errors';
import type { StagingErrorCode } from './staging-errors';

/**
 * What a failed job means for the agent, in each shipped language: the one mapping every client
 * uses, so a code never shows raw. Written for the person who pressed "Stage", not for operators
 * (STAGING_ERRORS holds the technical description); each says whether submitting again can help.
 */
export const STAGING_ERROR_REASONS: Readonly<Record<StagingErrorCode, Readonly<Record<Locale, string>>>> = {
  PROVIDER_THROTTLED: {
    en: 'The AI service was too busy to take the photo. You may submit again later.',
    es: 'El servicio de IA estaba saturado. Puede volver a enviarla más tarde.',
  },
  PROVIDER_UNAVAILABLE: {
    en: 'The AI service could not be reached. You may submit again later.',
    es: 'No se pudo contactar con el servicio de IA. Puede volver a enviarla más tarde.',
  },
  PROVIDER_FAILED: {
    en: 'The AI service failed to finish the image. You may submit again.',
    es: 'El servicio de IA no pudo terminar la imagen. Puede volver a enviarla.',
  },
  PROVIDER_FAILED_PERMANENT: {
    en: 'The AI service could not stage this photo. Try another photo or style.',
    es: 'El servicio de IA no pudo amueblar esta foto. Pruebe con otra foto u otro estilo.',
  },
  PROVIDER_ABORTED: {
    en: 'The AI service stopped the image on its side. You may submit again.',
    es: 'El servicio de IA detuvo la imagen por su cuenta. Puede volver a enviarla.',
  },
  PROVIDER_TIMEOUT: {
    en: 'The AI service took too long and the image was stopped. You may submit again.',
    es: 'El servicio de IA tardó demasiado y la imagen se detuvo. Puede volver a enviarla.',
  },
  PROVIDER_AUTH: {
    en: 'AI staging is not set up correctly on our side. Please contact support; submitting again will not help.',
    es: 'El amueblado con IA no está bien configurado. Contacte con soporte; volver a enviarla no servirá.',
  },
  PROVIDER_REJECTED_INPUT: {
    en: 'The AI service refused this photo (for example its content or format). Try another photo.',
    es: 'El servicio de IA rechazó esta foto (por su contenido o formato). Pruebe con otra foto.',
  },
  OUTPUT_DOWNLOAD_FAILED: {
    en: 'The finished image could not be downloaded. You may submit again.',
    es: 'No se pudo descargar la imagen terminada. Puede volver a enviarla.',
  },
  OUTPUT_TRUNCATED: {
    en: 'The finished image arrived damaged. You may submit again.',
    es: 'La imagen terminada llegó dañada. Puede volver a enviarla.',
  },
  OUTPUT_NOT_IMAGE: {
    en: 'The AI service sent something that is not an image. You may submit again.',
    es: 'El servicio de IA envió algo que no es una imagen. Puede volver a enviarla.',
  },
  OUTPUT_TOO_LARGE: {
    en: 'The finished image was larger than we accept, so it was not kept.',
    es: 'La imagen terminada superaba el tamaño admitido y no se guardó.',
  },
  OUTPUT_WRONG_FORMAT: {
    en: 'The finished image came back in the wrong file format, so it was not kept.',
    es: 'La imagen terminada llegó en un formato de archivo incorrecto y no se guardó.',
  },
  OUTPUT_WRONG_ASPECT_RATIO: {
    en: 'The finished image came back in the wrong shape, so it was not kept.',
    es: 'La imagen terminada llegó con una proporción incorrecta y no se guardó.',
  },
  ORIGINAL_MISSING: {
    en: 'The original photo was deleted before it could be staged.',
    es: 'La foto original se eliminó antes de poder amueblarla.',
  },
  ATTEMPTS_EXHAUSTED: {
    en: 'Both attempts failed. Nothing more will be bought for this job; you may submit again.',
    es: 'Fallaron los dos intentos. No se comprará nada más para este trabajo; puede volver a enviarla.',
  },
  DAILY_PURCHASE_CAP_REACHED: {
    en: 'The daily staging limit was reached. Nothing was bought; the job continues the next day unless you cancel it.',
    es: 'Se alcanzó el límite diario de amueblado. No se compró nada; el trabajo continúa al día siguiente salvo que lo cancele.',
  },
  PURCHASE_UNCONFIRMED: {
    en: 'The AI service could not confirm whether the image was bought. Nothing more will be bought for this job; you may submit again.',
    es: 'El servicio de IA no pudo confirmar si la imagen se compró. No se comprará nada más para este trabajo; puede volver a enviarla.',
  },
};

const UNKNOWN_REASON: Readonly<Record<Locale, string>> = {
  en: 'The staging failed for a reason this page does not know yet. Nothing more will be bought for this job; you may submit again.',
  es: 'El amueblado falló por un motivo que esta página aún no conoce. No se comprará nada más para este trabajo; puede volver a enviarla.',
};

/**
 * The agent-facing sentence for a failed job's errorCode; a generic one for codes a newer worker
 * may write before this release knows them.
 */
export function stagingErrorReason(code: string | null, locale: Locale): string {
  return isStagingErrorCode(code) ? STAGING_ERROR_REASONS[code][locale] : UNKNOWN_REASON[locale];
}
