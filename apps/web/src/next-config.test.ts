import nextConfig from '../next.config';

describe('next.config', () => {
  it('shows no dev tools button over the pages `npm start` serves with next dev', () => {
    expect(nextConfig.devIndicators).toBe(false);
  });
});
