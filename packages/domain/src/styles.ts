import { z } from 'zod';
import { AppError } from './errors';
import type { Locale } from './locale';
import { isOneOf } from './one-of';

/**
 * The six canonical staging styles (docs/decisions/staging.md "Six canonical styles"). The values match
 * the database enum `CanonicalStyle` verbatim and are the only names new clients send.
 */
export const CANONICAL_STYLES = [
  'MODERN',
  'SCANDINAVIAN',
  'INDUSTRIAL',
  'MID_CENTURY',
  'COASTAL',
  'FARMHOUSE',
] as const;
export type CanonicalStyle = (typeof CANONICAL_STYLES)[number];
export const ZCanonicalStyle = z.enum(CANONICAL_STYLES);
export function isCanonicalStyle(value: unknown): value is CanonicalStyle {
  return isOneOf(CANONICAL_STYLES, value);
}

/**
 * Picker labels per locale. This is UI text and may be reworded at any time; the prompt keeps its
 * own frozen wording per prompt version (see prompt.ts), so editing this never changes what a
 * persisted promptVersion means.
 */
export const STYLE_LABELS: Readonly<Record<Locale, Readonly<Record<CanonicalStyle, string>>>> = {
  en: {
    MODERN: 'Modern',
    SCANDINAVIAN: 'Scandinavian',
    INDUSTRIAL: 'Industrial',
    MID_CENTURY: 'Mid-century',
    COASTAL: 'Coastal',
    FARMHOUSE: 'Farmhouse',
  },
  es: {
    MODERN: 'Moderno',
    SCANDINAVIAN: 'Escandinavo',
    INDUSTRIAL: 'Industrial',
    MID_CENTURY: 'Mid-century',
    COASTAL: 'Costero',
    FARMHOUSE: 'Rústico',
  },
};

/** The one-line description under each label in the picker, per locale (UI text, as above). */
export const STYLE_DESCRIPTIONS: Readonly<Record<Locale, Readonly<Record<CanonicalStyle, string>>>> = {
  en: {
    MODERN: 'Clean lines, neutral palette, sleek low-profile furniture.',
    SCANDINAVIAN: 'Light woods, white and soft grey, cosy minimal textiles.',
    INDUSTRIAL: 'Leather, dark metal and reclaimed wood with a loft feel.',
    MID_CENTURY: 'Walnut, tapered legs, organic curves and warm accent colours.',
    COASTAL: 'Airy whites, sand and sea-blue tones, linen and rattan.',
    FARMHOUSE: 'Warm rustic wood, vintage accents and comfortable classics.',
  },
  es: {
    MODERN: 'Líneas limpias, paleta neutra y muebles bajos y elegantes.',
    SCANDINAVIAN: 'Maderas claras, blanco y gris suave, textiles cálidos y mínimos.',
    INDUSTRIAL: 'Cuero, metal oscuro y madera recuperada con aire de loft.',
    MID_CENTURY: 'Nogal, patas cónicas, curvas orgánicas y acentos de color cálidos.',
    COASTAL: 'Blancos luminosos, tonos arena y azul mar, lino y ratán.',
    FARMHOUSE: 'Madera cálida y rústica, detalles vintage y clásicos cómodos.',
  },
};

/** The UI label of `style` in `locale`. */
export function styleLabel(style: CanonicalStyle, locale: Locale): string {
  return STYLE_LABELS[locale][style];
}

/** The picker's description of `style` in `locale`. */
export function styleDescription(style: CanonicalStyle, locale: Locale): string {
  return STYLE_DESCRIPTIONS[locale][style];
}

/**
 * Old (v1) free-text style names and the canonical style each maps to. Keys are normalized (trimmed,
 * lower case). Migration 0009 carries the same table in SQL to normalize historical rows; the two
 * must stay identical.
 */
export const LEGACY_STYLE_ALIASES: Readonly<Record<string, CanonicalStyle>> = {
  modern: 'MODERN',
  contemporary: 'MODERN',
  luxury: 'MODERN',
  scandinavian: 'SCANDINAVIAN',
  scandi: 'SCANDINAVIAN',
  nordic: 'SCANDINAVIAN',
  minimalist: 'SCANDINAVIAN',
  industrial: 'INDUSTRIAL',
  loft: 'INDUSTRIAL',
  urban: 'INDUSTRIAL',
  'mid-century': 'MID_CENTURY',
  midcentury: 'MID_CENTURY',
  mid_century: 'MID_CENTURY',
  retro: 'MID_CENTURY',
  coastal: 'COASTAL',
  beach: 'COASTAL',
  hamptons: 'COASTAL',
  farmhouse: 'FARMHOUSE',
  rustic: 'FARMHOUSE',
  country: 'FARMHOUSE',
};

/**
 * Historical style values that stay readable on old rows but never start a generation
 * (docs/system.md 9.4). Normalized like alias keys.
 */
export const DISPLAY_ONLY_STYLES = ['no-furniture'] as const;

/** Longest style string a client may submit; anything longer cannot be a known name. */
export const MAX_SUBMITTED_STYLE_LENGTH = 64;

/** How a style string is matched: trimmed and lower-cased, the normalization of alias keys. */
export function normalizeStyleName(value: string): string {
  return value.trim().toLowerCase();
}

/** What a style string names, independent of the sunset instant. */
export type StyleClassification =
  | { kind: 'canonical'; canonicalStyle: CanonicalStyle }
  | { kind: 'alias'; canonicalStyle: CanonicalStyle; alias: string }
  | { kind: 'display-only'; value: string }
  | { kind: 'unknown' };

/**
 * Classifies a style string. A canonical name matches exactly (after trimming); every other
 * spelling, including `modern` or `mid_century`, is a legacy alias matched case-insensitively.
 * Keeping canonical names case-sensitive means a lower-case v1 value is always recognized as
 * legacy use and audited as such, even where it spells a canonical name.
 */
export function classifyStyleName(value: string): StyleClassification {
  const trimmed = value.trim();
  if (isCanonicalStyle(trimmed)) return { kind: 'canonical', canonicalStyle: trimmed };
  const normalized = normalizeStyleName(value);
  const aliased = Object.hasOwn(LEGACY_STYLE_ALIASES, normalized) ? LEGACY_STYLE_ALIASES[normalized] : undefined;
  if (aliased !== undefined) return { kind: 'alias', canonicalStyle: aliased, alias: normalized };
  if (isOneOf(DISPLAY_ONLY_STYLES, normalized)) return { kind: 'display-only', value: normalized };
  return { kind: 'unknown' };
}

/** The audited outcome of a submitted style. */
export interface StyleResolution {
  canonicalStyle: CanonicalStyle;
  /** Exactly what the client sent, kept for the audit (ai_room_staging_jobs.submittedStyle). */
  submittedStyle: string;
  /** The normalized alias when a legacy name was used, otherwise null. */
  legacyStyle: string | null;
}

/**
 * Resolves a submitted style for a new generation.
 *
 * - Canonical names are always accepted.
 * - Legacy aliases are accepted while `now <= sunsetAt` (inclusive); from one millisecond after
 *   the sunset they fail with LEGACY_STYLE_RETIRED naming the canonical style to send instead.
 *   A null sunset means no bridge is configured, so aliases are refused.
 * - `no-furniture` is display-only: STYLE_NOT_GENERATABLE.
 * - Anything else: BAD_REQUEST.
 *
 * @throws AppError with one issue at path `['style']`.
 */
export function resolveSubmittedStyle(
  submitted: string,
  options: { now: Date; sunsetAt: Date | null },
): StyleResolution {
  if (submitted.length > MAX_SUBMITTED_STYLE_LENGTH) {
    throw styleError('BAD_REQUEST', `Style must be at most ${MAX_SUBMITTED_STYLE_LENGTH} characters.`);
  }
  const classification = classifyStyleName(submitted);
  switch (classification.kind) {
    case 'canonical':
      return { canonicalStyle: classification.canonicalStyle, submittedStyle: submitted, legacyStyle: null };
    case 'alias': {
      const { sunsetAt, now } = options;
      if (sunsetAt !== null && now.getTime() <= sunsetAt.getTime()) {
        return { canonicalStyle: classification.canonicalStyle, submittedStyle: submitted, legacyStyle: classification.alias };
      }
      throw styleError(
        'LEGACY_STYLE_RETIRED',
        `The style name "${classification.alias}" is retired; submit ${classification.canonicalStyle} instead.`,
      );
    }
    case 'display-only':
      throw styleError('STYLE_NOT_GENERATABLE', `The style "${classification.value}" is display-only and cannot be generated.`);
    case 'unknown':
      throw styleError('BAD_REQUEST', `Unknown style; use one of ${CANONICAL_STYLES.join(', ')}.`);
  }
}

function styleError(code: 'BAD_REQUEST' | 'LEGACY_STYLE_RETIRED' | 'STYLE_NOT_GENERATABLE', message: string): AppError {
  return new AppError(code, message, { issues: [{ path: ['style'], message }] });
}
