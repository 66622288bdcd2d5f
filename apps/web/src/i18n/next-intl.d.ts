import type { Locale } from '@staging/domain/locale';
import type en from '../../messages/en.json';

// Type-checks every t('…') key against the English catalogue (es.json has the same keys, which
// catalogue.test.ts enforces).
declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
