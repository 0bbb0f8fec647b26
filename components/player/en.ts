// The player's entry for English pages: the island (index.ts) with the English strings.
import { mountPlayer } from './index.ts';
import { en } from './labels.ts';

export const mount = (section: HTMLElement): void => mountPlayer(section, en);
