/** English strings of the functional dashboard, the functional result screen and the links to them; spread into `en.ts`. Keys start with `functional.`. */
export const functionalBoardEn = {
} as const;
