import { renderTemplateDescription, templateDescriptionGenerator } from './description-generator';
import type { PropertyFacts } from './description-generator';

const base: PropertyFacts = {
  propertyId: 'p1',
  title: 'Sunny flat',
  city: 'Lisbon',
  bedrooms: 2,
  bathrooms: 1,
  features: [],
  units: [],
};

describe('renderTemplateDescription', () => {
  it('states rooms with correct plurals', () => {
    expect(renderTemplateDescription(base)).toBe(
      'Sunny flat in Lisbon. The home offers 2 bedrooms and 1 bathroom.',
    );
    expect(renderTemplateDescription({ ...base, bedrooms: 1, bathrooms: 2 })).toBe(
      'Sunny flat in Lisbon. The home offers 1 bedroom and 2 bathrooms.',
    );
  });

  it('calls zero bedrooms a studio and omits zero bathrooms', () => {
    expect(renderTemplateDescription({ ...base, bedrooms: 0, bathrooms: 0 })).toBe(
      'Sunny flat in Lisbon. The home offers a studio layout.',
    );
  });

  it('lists features once each, trimmed, in the given order', () => {
    const text = renderTemplateDescription({
      ...base,
      features: [' Balcony ', 'parking', 'balcony', '', 'Garden'],
    });
    expect(text).toContain('Highlights include balcony, parking and garden.');
  });

  it('summarizes units with totals and availability from the inventory', () => {
    const text = renderTemplateDescription({
      ...base,
      units: [
        { name: 'Studio', itemCount: 4, availableCount: 1 },
        { name: '2BR', itemCount: 6, availableCount: 3 },
      ],
    });
    expect(text).toContain(
      'It is offered in 2 unit types (Studio and 2BR) with 10 units in total, 4 currently available.',
    );
  });

  it('mentions unit types without inventory without inventing counts', () => {
    const text = renderTemplateDescription({
      ...base,
      units: [{ name: 'Loft', itemCount: 0, availableCount: 0 }],
    });
    expect(text).toContain('It is offered in 1 unit type (Loft).');
    expect(text).not.toMatch(/in total/);
  });

  it('is deterministic and identifies itself', async () => {
    const facts: PropertyFacts = {
      ...base,
      features: ['Pool'],
      units: [{ name: 'A', itemCount: 1, availableCount: 1 }],
    };
    const first = await templateDescriptionGenerator.generate(facts);
    const second = await templateDescriptionGenerator.generate(structuredClone(facts));
    expect(second).toEqual(first);
    expect(first).toMatchObject({ generator: 'template', generatorVersion: 'description-template-v1' });
  });
});
