import { readFileSync } from 'node:fs';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

type Catalogue = { [key: string]: string | Catalogue };

function messagesOf(locale: string): string[] {
  const catalogue = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as Catalogue;
  const walk = (node: Catalogue): string[] => Object.values(node).flatMap((value) => (typeof value === 'string' ? [value] : walk(value)));
  return walk(catalogue);
}

/** The literal text of a message: what stays the same whatever its arguments are. */
function literalsOf(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((element) => {
    if (element.type === TYPE.literal) return [element.value];
    if (element.type === TYPE.tag) return literalsOf(element.children);
    if (element.type === TYPE.plural || element.type === TYPE.select) return Object.values(element.options).flatMap((option) => literalsOf(option.value));
    return [];
  });
}

/**
 * Text only the English catalogue has: the literal runs of every English message, at least
 * `minLength` characters once trimmed, that no Spanish message contains. None of them may show
 * on a page rendered in Spanish.
 */
export function englishOnlyTexts(minLength = 8): string[] {
  const spanish = messagesOf('es').join('\n');
  const texts = new Set<string>();
  for (const message of messagesOf('en')) {
    for (const literal of literalsOf(parse(message))) {
      const text = literal.trim();
      if (text.length >= minLength && !spanish.includes(text)) texts.add(text);
    }
  }
  return [...texts];
}
