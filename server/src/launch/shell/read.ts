import type { Word } from './types';

/**
 * The names the `read` builtin sets when the script runs (`read -r MODEL BS`, the array of `-a ARR`): the words after
 * its options, of which `-d`, `-i`, `-n`, `-N`, `-p`, `-t` and `-u` take the next word as their argument.
 */
export function namesRead(words: Word[]): Word[] {
  const names: Word[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i].value;
    if (!names.length && /^-[A-Za-z]/.test(word)) {
      if (/^-[A-Za-z]*[dinNptu]$/.test(word)) i++;
    } else if (/^[A-Za-z_]\w*$/.test(word)) names.push(words[i]);
  }
  return names;
}
