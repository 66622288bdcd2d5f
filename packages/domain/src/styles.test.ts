import { AppError } from './errors';
import {
  CANONICAL_STYLES,
  LEGACY_STYLE_ALIASES,
  styleDescription,
  styleLabel,
  classifyStyleName,
  resolveSubmittedStyle,
} from './styles';
import type { CanonicalStyle } from './styles';

const sunsetAt = new Date('2027-01-31T23:59:59.999Z');
const before = { now: new Date('2026-12-01T00:00:00.000Z'), sunsetAt };

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('canonical styles', () => {
  it('are exactly the six styles of docs/decisions/staging.md', () => {
    expect(CANONICAL_STYLES).toEqual(['MODERN', 'SCANDINAVIAN', 'INDUSTRIAL', 'MID_CENTURY', 'COASTAL', 'FARMHOUSE']);
  });

  it('have a label and description in English and Spanish', () => {
    for (const locale of ['en', 'es'] as const) {
      for (const style of CANONICAL_STYLES) {
        expect(styleLabel(style, locale).length).toBeGreaterThan(0);
        expect(styleDescription(style, locale).length).toBeGreaterThan(10);
      }
    }
    expect(styleLabel('COASTAL', 'es')).toBe('Costero');
  });

  it.each(CANONICAL_STYLES)('accepts %s without legacy audit, even after the sunset', (style) => {
    const after = { now: new Date(sunsetAt.getTime() + 86_400_000), sunsetAt };
    expect(resolveSubmittedStyle(style, after)).toEqual({ canonicalStyle: style, submittedStyle: style, legacyStyle: null });
    expect(resolveSubmittedStyle(style, { now: before.now, sunsetAt: null }).legacyStyle).toBeNull();
  });
});

describe('legacy alias table', () => {
  // The exact table shared with migration 0009; any edit here must be made there too.
  const expected: Record<string, CanonicalStyle> = {
    modern: 'MODERN', contemporary: 'MODERN', luxury: 'MODERN',
    scandinavian: 'SCANDINAVIAN', scandi: 'SCANDINAVIAN', nordic: 'SCANDINAVIAN', minimalist: 'SCANDINAVIAN',
    industrial: 'INDUSTRIAL', loft: 'INDUSTRIAL', urban: 'INDUSTRIAL',
    'mid-century': 'MID_CENTURY', midcentury: 'MID_CENTURY', mid_century: 'MID_CENTURY', retro: 'MID_CENTURY',
    coastal: 'COASTAL', beach: 'COASTAL', hamptons: 'COASTAL',
    farmhouse: 'FARMHOUSE', rustic: 'FARMHOUSE', country: 'FARMHOUSE',
  };

  it('is exactly the agreed table', () => {
    expect(LEGACY_STYLE_ALIASES).toEqual(expected);
  });

  it.each(Object.entries(expected))('%s resolves to %s before the sunset, audited as legacy', (alias, canonical) => {
    expect(resolveSubmittedStyle(alias, before)).toEqual({ canonicalStyle: canonical, submittedStyle: alias, legacyStyle: alias });
  });

  it('matches case-insensitively and trimmed, keeping the raw submission for the audit', () => {
    expect(resolveSubmittedStyle('  Scandi\t', before)).toEqual({
      canonicalStyle: 'SCANDINAVIAN',
      submittedStyle: '  Scandi\t',
      legacyStyle: 'scandi',
    });
    expect(resolveSubmittedStyle('MID-CENTURY', before).canonicalStyle).toBe('MID_CENTURY');
    expect(resolveSubmittedStyle(' FARMHOUSE ', before)).toMatchObject({ canonicalStyle: 'FARMHOUSE', legacyStyle: null });
  });

  it('treats lower-case spellings of canonical names as legacy use', () => {
    expect(classifyStyleName('mid_century')).toEqual({ kind: 'alias', canonicalStyle: 'MID_CENTURY', alias: 'mid_century' });
    expect(classifyStyleName('Modern')).toEqual({ kind: 'alias', canonicalStyle: 'MODERN', alias: 'modern' });
  });

  it('accepts an alias at exactly the sunset instant and retires it one millisecond later', () => {
    expect(resolveSubmittedStyle('loft', { now: new Date(sunsetAt.getTime()), sunsetAt }).canonicalStyle).toBe('INDUSTRIAL');
    const late = () => resolveSubmittedStyle('loft', { now: new Date(sunsetAt.getTime() + 1), sunsetAt });
    expect(codeOf(late)).toBe('LEGACY_STYLE_RETIRED');
    expect(late).toThrow(/INDUSTRIAL/);
  });

  it('names the canonical style in the retirement error of every alias', () => {
    const after = { now: new Date(sunsetAt.getTime() + 1), sunsetAt };
    for (const [alias, canonical] of Object.entries(expected)) {
      try {
        resolveSubmittedStyle(alias, after);
        throw new Error(`${alias} was accepted after the sunset`);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('LEGACY_STYLE_RETIRED');
        expect((error as AppError).message).toContain(canonical);
        expect((error as AppError).issues).toEqual([{ path: ['style'], message: (error as AppError).message }]);
      }
    }
  });

  it('refuses aliases when no sunset is configured', () => {
    expect(codeOf(() => resolveSubmittedStyle('beach', { now: before.now, sunsetAt: null }))).toBe('LEGACY_STYLE_RETIRED');
  });
});

describe('values that never generate', () => {
  it.each(['no-furniture', 'No-Furniture', ' no-furniture '])('%s is display-only', (value) => {
    expect(codeOf(() => resolveSubmittedStyle(value, before))).toBe('STYLE_NOT_GENERATABLE');
  });

  it.each(['', '  ', 'bohemian', 'modern!', 'MODERN_X', 'constructor', '__proto__', 'x'.repeat(65)])(
    '%j is a bad request',
    (value) => {
      expect(codeOf(() => resolveSubmittedStyle(value, before))).toBe('BAD_REQUEST');
    },
  );
});
