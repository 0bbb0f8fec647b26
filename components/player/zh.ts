// The player's entry for Chinese pages: the island (index.ts) with the Chinese strings.
import { mountPlayer } from './index.ts';
import { zh } from './labels-zh.ts';

export const mount = (section: HTMLElement): void => mountPlayer(section, zh);
