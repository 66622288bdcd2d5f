'use client';

import { useLocale, useTranslations } from 'next-intl';
import { CANONICAL_STYLES, styleDescription, styleLabel, type CanonicalStyle } from '@staging/domain/styles';

/** The six canonical styles as radio buttons named `name`. */
export function StageStyleChoice({ name, style, onChange }: { name: string; style: CanonicalStyle | ''; onChange: (style: CanonicalStyle) => void }) {
  const t = useTranslations('stage');
  const locale = useLocale();
  return (
    <fieldset>
      <legend>{t('style')}</legend>
      <div className="choice-grid">
        {CANONICAL_STYLES.map((value) => (
          <label key={value} className="choice">
            <input type="radio" name={name} value={value} checked={style === value} onChange={() => onChange(value)} />
            <span className="choice-text">
              <strong>{styleLabel(value, locale)}</strong>
              <span className="small muted">{styleDescription(value, locale)}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
