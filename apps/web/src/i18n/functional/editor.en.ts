/** English strings of the functional URL input screen (the plan form and the API editor cards); spread into `en.ts`. Keys start with `functional.`. */
export const functionalEditorEn = {
} as const;
