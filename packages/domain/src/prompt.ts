import { isOneOf } from './one-of';
import type { RoomType } from './room-types';
import type { CanonicalStyle } from './styles';

/**
 * Every prompt version ever persisted. A version's text never changes once jobs carry it
 * (ai_room_staging_jobs.promptVersion is audit evidence of what was sent and paid for); a wording
 * change is a new version appended here.
 */
export const PROMPT_VERSIONS = ['staging-v2.1'] as const;
export type PromptVersion = (typeof PROMPT_VERSIONS)[number];

/** The version new jobs are rendered with. */
export const PROMPT_VERSION: PromptVersion = 'staging-v2.1';

/** Inputs of a staging prompt: the audited room type and canonical style. */
export interface StagingPromptInput {
  roomType: RoomType;
  style: CanonicalStyle;
}

interface PromptTemplate {
  room: Readonly<Record<RoomType, { name: string; furnishing: string }>>;
  style: Readonly<Record<CanonicalStyle, string>>;
  render(room: { name: string; furnishing: string }, style: string): string;
}

// The wording lives beside the version on purpose: the UI copy in styles.ts and room-types.ts may
// be edited freely, this text may not.
const TEMPLATES: Readonly<Record<PromptVersion, PromptTemplate>> = {
  'staging-v2.1': {
    room: {
      BEDROOM: { name: 'bedroom', furnishing: 'a bed with bedding, nightstands, lamps, a rug and wall art' },
      LIVING_ROOM: { name: 'living room', furnishing: 'a sofa, armchairs, a coffee table, a rug, lamps and plants' },
      DINING_ROOM: { name: 'dining room', furnishing: 'a dining table with chairs, a sideboard, a rug and table decor' },
      KITCHEN: { name: 'kitchen', furnishing: 'bar stools, a small table if there is room, plants and countertop decor' },
      BATHROOM: { name: 'bathroom', furnishing: 'towels, a bath mat, plants and small decor on free surfaces' },
      OFFICE: { name: 'home office', furnishing: 'a desk, an office chair, shelving, a lamp and a rug' },
      TV_ROOM: {
        name: 'TV/media room, a room dedicated to watching television and films,',
        furnishing:
          'a television on a low media console as the focal point, a sofa or sectional facing the screen, a rug, side tables and soft lighting lamps',
      },
    },
    style: {
      MODERN: 'modern style: clean lines, a neutral palette and sleek low-profile furniture',
      SCANDINAVIAN: 'Scandinavian style: light woods, white and soft grey tones and cosy minimal textiles',
      INDUSTRIAL: 'industrial style: leather, dark metal and reclaimed wood with a loft feel',
      MID_CENTURY: 'mid-century modern style: walnut, tapered legs, organic curves and warm accent colours',
      COASTAL: 'coastal style: airy whites, sand and sea-blue tones, linen and rattan',
      FARMHOUSE: 'farmhouse style: warm rustic wood, vintage accents and comfortable classic pieces',
    },
    render: (room, style) =>
      [
        `Virtually stage this photo of a ${room.name} in ${style}.`,
        `Furnish it with ${room.furnishing}.`,
        'Keep the room and the photograph exactly as they are: do not change the walls, windows, doors, floors, ceiling or built-in fixtures (cabinets, counters, light fixtures, plumbing), and keep the camera unchanged: the same angle, lens, framing and lighting.',
        'Only add movable furniture and decor. Do not remove, move or restyle anything already in the room, and do not add people, text, watermarks or logos.',
        'The result must be a photorealistic photo of the same room.',
      ].join('\n'),
  },
};

/** True when `value` names a known prompt version. */
export function isPromptVersion(value: unknown): value is PromptVersion {
  return isOneOf(PROMPT_VERSIONS, value);
}

/**
 * Renders the provider prompt for a room type and canonical style. The text is a pure function of
 * (version, roomType, style), so a persisted job can always be re-rendered and compared.
 *
 * @param version defaults to {@link PROMPT_VERSION}; pass a job's persisted version to reproduce it.
 */
export function renderStagingPrompt(input: StagingPromptInput, version: PromptVersion = PROMPT_VERSION): string {
  const template = TEMPLATES[version];
  return template.render(template.room[input.roomType], template.style[input.style]);
}
