import { aspectLabel, containBox, uncoveredShare } from './aspect';

describe('aspect helpers', () => {
  it('names common ratios and falls back to a decimal', () => {
    expect(aspectLabel(1200, 800)).toBe('3:2');
    expect(aspectLabel(1024, 1024)).toBe('1:1');
    expect(aspectLabel(1920, 1080)).toBe('16:9');
    expect(aspectLabel(1001, 997)).toBe('1.00:1');
  });

  it('fits a square output into a 3:2 frame as a centred square covering two thirds', () => {
    const box = containBox(1, 1.5);
    expect(box.width).toBeCloseTo(66.667, 2);
    expect(box).toMatchObject({ top: 0, height: 100 });
    expect(box.left).toBeCloseTo(16.667, 2);
    expect(uncoveredShare(box)).toBeCloseTo(1 / 3, 5);
    expect(containBox(1.5, 1)).toMatchObject({ left: 0, width: 100 });
    expect(uncoveredShare(containBox(1.5, 1.5))).toBe(0);
  });
});
