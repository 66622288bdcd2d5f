import { queueNames, searchDocumentKey } from './queues';

describe('queueNames', () => {
  it.each([
    ['', { staging: 'ai-staging', ai: 'ai', search: 'search-indexing' }],
    ['-pr-42', { staging: 'ai-staging-pr-42', ai: 'ai-pr-42', search: 'search-indexing-pr-42' }],
  ])('suffix %p', (suffix, names) => {
    expect(queueNames(suffix)).toEqual(names);
  });
});

describe('searchDocumentKey', () => {
  it('uses the psearch:property:<id> shape', () => {
    expect(searchDocumentKey('0b7d6c1e-6a51-4c35-9d0a-0f3f6f0e9a11')).toBe('psearch:property:0b7d6c1e-6a51-4c35-9d0a-0f3f6f0e9a11');
  });
});
