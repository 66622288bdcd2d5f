'use client';

import { useId, useState, type CSSProperties } from 'react';

interface CompareViewProps {
  beforeUrl: string;
  afterUrl: string;
  /** width / height of the staged image; the original is cropped to the same frame to line up. */
  aspectRatio: number;
  /** Names the photo in alt texts and control labels, e.g. "Photo 1 (Living room)". */
  name: string;
}

/**
 * Before/after comparison: a slider that wipes between the original and the staged image (a native
 * range input, so it works with arrow keys and screen readers), or both side by side.
 */
export function CompareView({ beforeUrl, afterUrl, aspectRatio, name }: CompareViewProps) {
  const id = useId();
  const [mode, setMode] = useState<'slider' | 'side-by-side'>('slider');
  const [split, setSplit] = useState(50);

  return (
    <div className="stack">
      <div className="row" role="group" aria-label={`Comparison view for ${name}`}>
        <button type="button" className="button button-small" aria-pressed={mode === 'slider'} onClick={() => setMode('slider')}>
          Slider
        </button>
        <button type="button" className="button button-small" aria-pressed={mode === 'side-by-side'} onClick={() => setMode('side-by-side')}>
          Side by side
        </button>
      </div>
      {mode === 'slider' ? (
        <div className="stack" style={{ gap: '0.4rem' }}>
          <div className="compare" style={{ '--split': `${split}%`, aspectRatio: String(aspectRatio) } as CSSProperties} data-testid="compare-slider">
            <img src={beforeUrl} alt={`${name} before staging (original)`} />
            <img className="compare-after" src={afterUrl} alt={`${name} after staging (AI)`} />
            <span className="compare-divider" aria-hidden="true" />
          </div>
          <label htmlFor={`${id}-range`} className="small">
            Before ← → After: showing {100 - split}% staged
          </label>
          <input
            id={`${id}-range`}
            className="compare-range"
            type="range"
            min={0}
            max={100}
            step={1}
            value={split}
            aria-valuetext={`${100 - split}% of the staged image visible`}
            onChange={(event) => setSplit(Number(event.target.value))}
          />
        </div>
      ) : (
        <div className="side-by-side" data-testid="compare-side-by-side">
          <figure>
            <img src={beforeUrl} alt={`${name} before staging (original)`} style={{ aspectRatio: String(aspectRatio) }} />
            <figcaption>Before: original photo</figcaption>
          </figure>
          <figure>
            <img src={afterUrl} alt={`${name} after staging (AI)`} style={{ aspectRatio: String(aspectRatio) }} />
            <figcaption>After: AI staged</figcaption>
          </figure>
        </div>
      )}
    </div>
  );
}
