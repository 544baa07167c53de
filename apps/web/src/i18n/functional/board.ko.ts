import type { functionalBoardEn } from './board.en';

/** Korean strings of the functional dashboard, the functional result screen and the links to them; a missing or unknown key is a compile error. */
export const functionalBoardKo: Record<keyof typeof functionalBoardEn, string> = {
};
