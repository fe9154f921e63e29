import type { ConfigData } from 'html-validate';

/**
 * What "valid HTML" means for the pages: html-validate's `standard` rules (the HTML standard: content
 * models, required attributes, unique ids, labelled controls...) and its `a11y` ones, with one rule off
 * for a reason: a `>` in text is valid HTML (only `<` and `&` must be escaped there, and are), and the
 * renderer leaves it as written.
 */
export const HTML_RULES: ConfigData = {
  extends: ['html-validate:standard', 'html-validate:a11y'],
  rules: {
    'no-raw-characters': 'off',
  },
};
