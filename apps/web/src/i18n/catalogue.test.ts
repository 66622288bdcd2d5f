import { readFileSync } from 'node:fs';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createTranslator } from 'use-intl/core';
import { ROOM_TYPES } from '@staging/domain/room-types';
import type enMessages from '../../messages/en.json';

type Catalogue = { [key: string]: string | Catalogue };

function readCatalogue(locale: string): Catalogue {
  return JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as Catalogue;
}

/** "section.key" → message, for every leaf of a catalogue. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [nested, message] of flatten(value, path)) entries.set(nested, message);
  }
  return entries;
}

/** The arguments and rich-text tags a message uses, e.g. ["count", "<strong>"], sorted. */
function placeholdersOf(elements: MessageFormatElement[]): string[] {
  const found = new Set<string>();
  const visit = (list: MessageFormatElement[]) => {
    for (const element of list) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      found.add(element.type === TYPE.tag ? `<${element.value}>` : element.value);
      if (element.type === TYPE.tag) visit(element.children);
      if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) visit(option.value);
    }
  };
  visit(elements);
  return [...found].sort();
}

/**
 * Every problem between a reference catalogue and a translation: keys missing or extra, messages
 * that are not valid ICU, placeholders that differ, and untranslated values outside `allowed`.
 */
function catalogueProblems(reference: Map<string, string>, translation: Map<string, string>, allowed: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const key of reference.keys()) if (!translation.has(key)) problems.push(`${key}: missing`);
  for (const key of translation.keys()) if (!reference.has(key)) problems.push(`${key}: not in the reference`);
  const parsed = (key: string, message: string) => {
    try {
      return placeholdersOf(parse(message));
    } catch (error) {
      problems.push(`${key}: not ICU (${String(error)})`);
      return undefined;
    }
  };
  for (const [key, message] of reference) parsed(key, message);
  for (const [key, message] of translation) {
    const own = parsed(key, message);
    const original = reference.get(key);
    if (original === undefined || own === undefined) continue;
    const expected = placeholdersOf(parse(original));
    if (own.join() !== expected.join()) problems.push(`${key}: placeholders ${own.join()} instead of ${expected.join()}`);
    if (message === original && !allowed.has(key)) problems.push(`${key}: identical to the reference`);
  }
  return problems;
}

/**
 * Plural arguments of a message without a branch for exactly one: the `other` branch then speaks
 * of 1 too ("1 no admitidas").
 */
function pluralsWithoutOne(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((element): string[] => {
    if (element.type === TYPE.tag) return pluralsWithoutOne(element.children);
    if (element.type !== TYPE.plural && element.type !== TYPE.select) return [];
    const nested = Object.values(element.options).flatMap((option) => pluralsWithoutOne(option.value));
    const options = Object.keys(element.options);
    const lacksOne = element.type === TYPE.plural && !options.includes('one') && !options.includes('=1');
    return lacksOne ? [element.value, ...nested] : nested;
  });
}

// Values that are the same words in both languages: placeholders only (a count with "+"), a dash, and "original",
// which Spanish spells the same.
const SAME_IN_BOTH = new Set([
  'common.none',
  'photos.withRoom',
  'photos.originalAlt',
  'listing.photoAlt',
  'compare.beforeTitle',
  'compare.originalFile',
  'jobs.originalAlt',
  'spend.amount',
  'agentHeader.countAtLeast',
]);

describe('message catalogues', () => {
  const en = flatten(readCatalogue('en'));
  const es = flatten(readCatalogue('es'));

  it('has es with exactly the keys of en, valid ICU everywhere, the same placeholders and every text translated', () => {
    expect(en.size).toBeGreaterThan(300);
    expect(catalogueProblems(en, es, SAME_IN_BOTH)).toEqual([]);
  });

  it('gives every Spanish plural its own words for one, and finds a plural that lacks them', () => {
    const lacking = [...es].flatMap(([key, message]) => pluralsWithoutOne(parse(message)).map((argument) => `${key}: ${argument}`));
    expect(lacking).toEqual([]);
    expect(pluralsWithoutOne(parse('{count, plural, one {# foto} other {# fotos}}{refused, plural, =0 {} other {, # no admitidas}}'))).toEqual(['refused']);
    const t = createTranslator({ locale: 'es', messages: readCatalogue('es') as typeof enMessages, namespace: 'upload' });
    expect(t('summaryReady', { count: 2, refused: 1 })).toBe('2 fotos listas para subir, 1 no admitida.');
    expect(t('summaryReady', { count: 1, refused: 3 })).toBe('1 foto lista para subir, 3 no admitidas.');
  });

  it('keeps the allow-list honest: each allowed key exists and is in fact identical', () => {
    for (const key of SAME_IN_BOTH) expect([key, es.get(key)]).toEqual([key, en.get(key)]);
  });

  it('finds every kind of problem in a broken translation', () => {
    const reference = new Map([
      ['a.count', '{count, plural, one {# bathroom} other {# bathrooms}}'],
      ['a.name', 'Hello {name}'],
      ['a.same', 'Review'],
      ['a.gone', 'Gone'],
    ]);
    const broken = new Map([
      ['a.count', '{count, plural, one {# baño} other {# baños}'],
      ['a.name', 'Hola {nombre}'],
      ['a.same', 'Review'],
      ['a.extra', 'Extra'],
    ]);
    const problems = catalogueProblems(reference, broken, new Set());
    expect(problems).toEqual([
      'a.gone: missing',
      'a.extra: not in the reference',
      expect.stringMatching(/^a\.count: not ICU/),
      'a.name: placeholders nombre instead of name',
      'a.same: identical to the reference',
    ]);
  });

  it('names every room type, each differently, and the TV room as a room of its own (docs/system.md 1.2)', () => {
    for (const locale of ['en', 'es']) {
      const rooms = readCatalogue(locale)['roomTypes'] as Catalogue;
      expect(Object.keys(rooms).sort()).toEqual([...ROOM_TYPES].sort());
      expect(new Set(Object.values(rooms)).size).toBe(ROOM_TYPES.length);
    }
    const t = (locale: 'en' | 'es') => createTranslator({ locale, messages: readCatalogue(locale) as typeof enMessages, namespace: 'roomTypes' });
    expect(t('en')('TV_ROOM')).toBe('TV / media room');
    expect(t('es')('TV_ROOM')).toBe('Sala de TV / multimedia');
    expect(t('en')('TV_ROOM')).not.toMatch(/living/i);
  });

  it('formats plurals, currency and dates in each language', () => {
    const t = (locale: 'en' | 'es') => createTranslator({ locale, messages: readCatalogue(locale) as typeof enMessages, timeZone: 'UTC' });
    const bathrooms = (locale: 'en' | 'es') => [1, 2, 1.5].map((count) => t(locale)('listing.bathrooms', { count }));
    expect(bathrooms('en')).toEqual(['1 bathroom', '2 bathrooms', '1.5 bathrooms']);
    expect(bathrooms('es')).toEqual(['1 baño', '2 baños', '1,5 baños']);
    expect(t('en')('jobs.cost', { cost: 0.08 })).toBe('Cost estimate: $0.08');
    expect(t('es')('jobs.cost', { cost: 0.08 })).toBe('Coste estimado: 0,08\u00a0US$');
    expect(t('en')('spend.amount', { amount: 1.2 })).toBe('≈ $1.20');
    expect(t('es')('spend.amount', { amount: 1.2 })).toBe('≈ 1,20\u00a0US$');
    const at = new Date('2026-03-05T14:30:00Z');
    // The space before PM is narrow or plain depending on the ICU data of the Node build.
    expect(t('en')('jobs.created', { at })).toMatch(/^Submitted: Mar 5, 2026 2:30\sPM$/);
    expect(t('es')('jobs.created', { at })).toBe('Enviado: 5 mar 2026 14:30');
    const midnight = new Date('2026-03-06T00:00:00Z');
    expect(t('en')('jobs.dailyCapReached', { at: midnight })).toMatch(/resumes Mar 6, 2026 12:00\sAM$/);
    expect(t('es')('jobs.dailyCapReached', { at: midnight })).toMatch(/continuará el 6 mar 2026 a las 0:00$/);
    expect(t('en')('spend.todayCapped', { purchases: 1200, cap: 1500, resetsAt: midnight })).toMatch(/^Today \(UTC day\), for the whole account \(every agent\): 1,200 of 1,500 paid attempts/);
    expect(t('es')('spend.todayUncapped', { purchases: 1 })).toBe('Hoy (día UTC), en toda la cuenta (todos los agentes): 1 intento de pago; no hay límite diario.');
  });

  it('says "not priced" where no price was configured, never an amount that reads as free', () => {
    const t = (locale: 'en' | 'es') => createTranslator({ locale, messages: readCatalogue(locale) as typeof enMessages });
    expect(t('en')('jobs.noCost')).toBe('Cost estimate: not priced');
    expect(t('es')('jobs.noCost')).toBe('Coste estimado: sin precio');
    expect(t('en')('spend.notPriced')).toBe('not priced');
    expect(t('es')('spend.notPriced')).toBe('sin precio');
    expect(t('en')('spend.withoutPrice', { count: 6 })).toBe('(+6 not priced)');
    expect(t('es')('spend.withoutPrice', { count: 6 })).toBe('(+6 sin precio)');
    expect(t('en')('stage.estimateUnset')).toMatch(/^Estimated price: not priced /);
    expect(t('es')('stage.estimateUnset')).toMatch(/^Precio estimado: sin precio /);
  });
});
