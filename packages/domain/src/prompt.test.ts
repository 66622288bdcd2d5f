import { createHash } from 'node:crypto';
import { PROMPT_VERSION, PROMPT_VERSIONS, isPromptVersion, renderStagingPrompt } from './prompt';
import { ROOM_TYPES } from './room-types';
import { CANONICAL_STYLES } from './styles';

const allPairs = ROOM_TYPES.flatMap((roomType) => CANONICAL_STYLES.map((style) => ({ roomType, style })));

describe('staging prompt', () => {
  it('renders new jobs with staging-v2.1', () => {
    expect(PROMPT_VERSION).toBe('staging-v2.1');
    expect(PROMPT_VERSIONS).toContain(PROMPT_VERSION);
    expect(isPromptVersion('staging-v2.1')).toBe(true);
    expect(isPromptVersion('staging-v9')).toBe(false);
  });

  // Pinned text: a persisted promptVersion must keep meaning exactly this. A wording change is a
  // new version, never an edit of this one.
  it('pins the exact staging-v2.1 text for a TV room', () => {
    expect(renderStagingPrompt({ roomType: 'TV_ROOM', style: 'MODERN' }, 'staging-v2.1')).toBe(
      [
        'Virtually stage this photo of a TV/media room, a room dedicated to watching television and films, in modern style: clean lines, a neutral palette and sleek low-profile furniture.',
        'Furnish it with a television on a low media console as the focal point, a sofa or sectional facing the screen, a rug, side tables and soft lighting lamps.',
        'Keep the room and the photograph exactly as they are: do not change the walls, windows, doors, floors, ceiling or built-in fixtures (cabinets, counters, light fixtures, plumbing), and keep the camera unchanged: the same angle, lens, framing and lighting.',
        'Only add movable furniture and decor. Do not remove, move or restyle anything already in the room, and do not add people, text, watermarks or logos.',
        'The result must be a photorealistic photo of the same room.',
      ].join('\n'),
    );
  });

  it('pins the exact staging-v2.1 text for a coastal bedroom', () => {
    expect(renderStagingPrompt({ roomType: 'BEDROOM', style: 'COASTAL' })).toBe(
      [
        'Virtually stage this photo of a bedroom in coastal style: airy whites, sand and sea-blue tones, linen and rattan.',
        'Furnish it with a bed with bedding, nightstands, lamps, a rug and wall art.',
        'Keep the room and the photograph exactly as they are: do not change the walls, windows, doors, floors, ceiling or built-in fixtures (cabinets, counters, light fixtures, plumbing), and keep the camera unchanged: the same angle, lens, framing and lighting.',
        'Only add movable furniture and decor. Do not remove, move or restyle anything already in the room, and do not add people, text, watermarks or logos.',
        'The result must be a photorealistic photo of the same room.',
      ].join('\n'),
    );
  });

  it('pins every staging-v2.1 text by digest', () => {
    const all = allPairs.map((pair) => renderStagingPrompt(pair, 'staging-v2.1')).join('\n---\n');
    expect(createHash('sha256').update(all).digest('hex')).toBe('3e610cc95c04ba01777794b215e784fb25c15e01629c026b0f419aa101176ab5');
  });

  it.each(allPairs)('keeps the room and camera and only adds furniture for $roomType / $style', (pair) => {
    const text = renderStagingPrompt(pair);
    for (const kept of ['walls', 'windows', 'floors', 'fixtures', 'camera', 'angle', 'lens', 'framing', 'lighting']) {
      expect(text).toContain(kept);
    }
    expect(text).toContain('Only add movable furniture and decor.');
  });

  it('gives every room type and style its own text', () => {
    expect(new Set(allPairs.map((pair) => renderStagingPrompt(pair))).size).toBe(allPairs.length);
  });

  it('prompts TV_ROOM as a TV/media room and never as a living room', () => {
    for (const style of CANONICAL_STYLES) {
      const text = renderStagingPrompt({ roomType: 'TV_ROOM', style });
      expect(text).toContain('TV/media room');
      expect(text).not.toMatch(/living[ _]?room/i);
      expect(text).not.toBe(renderStagingPrompt({ roomType: 'LIVING_ROOM', style }));
    }
  });
});
