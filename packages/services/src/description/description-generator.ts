/**
 * Listing descriptions from property facts. The worker depends on the {@link DescriptionGenerator}
 * interface only, so a language-model generator can replace the template one later without
 * touching the queue, the ledger or the tests that prove staging never delays descriptions.
 */

/** One unit type of a property with its inventory counts. */
export interface UnitFacts {
  name: string;
  /** Inventory items of this unit type. */
  itemCount: number;
  /** Items with status AVAILABLE. */
  availableCount: number;
}

/** What a description may be written from: stored facts only, never free text from a client. */
export interface PropertyFacts {
  propertyId: string;
  title: string;
  city: string;
  bedrooms: number;
  bathrooms: number;
  features: string[];
  units: UnitFacts[];
}

export interface GeneratedDescription {
  text: string;
  /** Stable identifier of the generator, persisted in ai_jobs.result for audit. */
  generator: string;
  /** Version of the generator's wording or model, persisted with the text. */
  generatorVersion: string;
}

export interface DescriptionGenerator {
  readonly id: string;
  /**
   * Writes a description. May take time (a model call) and may throw; the caller retries a
   * bounded number of times and then records the job as FAILED.
   */
  generate(facts: PropertyFacts, options?: { signal?: AbortSignal }): Promise<GeneratedDescription>;
}

export const TEMPLATE_GENERATOR_ID = 'template';
export const TEMPLATE_GENERATOR_VERSION = 'description-template-v1';

/** More features than this read as a dump of tags, not as a sentence. */
const MAX_FEATURES = 8;

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function cleanFeatures(features: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of features) {
    const feature = raw.trim().replace(/\s+/g, ' ');
    const key = feature.toLowerCase();
    if (feature === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(feature);
  }
  return out.slice(0, MAX_FEATURES);
}

function roomsSentence(facts: PropertyFacts): string {
  const parts: string[] = [];
  parts.push(facts.bedrooms === 0 ? 'a studio layout' : plural(facts.bedrooms, 'bedroom'));
  if (facts.bathrooms > 0) parts.push(plural(facts.bathrooms, 'bathroom'));
  return `The home offers ${joinList(parts)}.`;
}

function unitsSentence(units: readonly UnitFacts[]): string | null {
  const withItems = units.filter((unit) => unit.itemCount > 0);
  if (units.length === 0) return null;
  const total = withItems.reduce((sum, unit) => sum + unit.itemCount, 0);
  const available = withItems.reduce((sum, unit) => sum + unit.availableCount, 0);
  const names = units.map((unit) => unit.name.trim()).filter((name) => name !== '');
  const typeText = `${plural(units.length, 'unit type')}${names.length > 0 ? ` (${joinList(names)})` : ''}`;
  if (total === 0) return `It is offered in ${typeText}.`;
  return `It is offered in ${typeText} with ${plural(total, 'unit')} in total, ${available} currently available.`;
}

/**
 * Deterministic description from the facts alone: the same facts always give the same text,
 * which makes the job idempotent and testable. Counts and names come from the database, so the
 * text never states anything the listing does not hold.
 */
export function renderTemplateDescription(facts: PropertyFacts): string {
  const title = facts.title.trim();
  const city = facts.city.trim();
  const sentences: string[] = [`${title}${city === '' ? '' : ` in ${city}`}.`, roomsSentence(facts)];
  const features = cleanFeatures(facts.features);
  if (features.length > 0)
    sentences.push(`Highlights include ${joinList(features.map((f) => f.toLowerCase()))}.`);
  const units = unitsSentence(facts.units);
  if (units !== null) sentences.push(units);
  return sentences.join(' ');
}

/** The generator the worker uses until a model-backed one is configured. */
export const templateDescriptionGenerator: DescriptionGenerator = {
  id: TEMPLATE_GENERATOR_ID,
  async generate(facts) {
    return {
      text: renderTemplateDescription(facts),
      generator: TEMPLATE_GENERATOR_ID,
      generatorVersion: TEMPLATE_GENERATOR_VERSION,
    };
  },
};
