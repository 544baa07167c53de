import type { functionalEditorEn } from './editor.en';

/** Korean strings of the functional URL input screen (the plan form and the API editor cards); a missing or unknown key is a compile error. */
export const functionalEditorKo: Record<keyof typeof functionalEditorEn, string> = {
};
