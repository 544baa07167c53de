import type { editorsEn } from './editors.en';

/** Korean strings of the code editors and the import screen's choice of operations; keys as editors.en.ts. */
export const editorsKo: Record<keyof typeof editorsEn, string> = {
  'codeEditor.refused':
    '추가하지 않았습니다: 텍스트가 {length}자가 되는데, 이 필드는 최대 {max}자까지 담을 수 있습니다. 아무것도 바뀌지 않았습니다.',
  'codeEditor.overLimit':
    '이 텍스트는 {length}자입니다. 이 필드는 최대 {max}자까지 담을 수 있습니다. 저장하기 전에 줄여 주세요.',
  'codeEditor.fileTooLong':
    '{name}을(를) 불러오지 않았습니다: 스크립트가 {length}자인데, 스크립트는 최대 {max}자까지 담을 수 있습니다.',
  'list.showMore': '{more}개 더 보기 ({total}개 중 {shown}개 표시)',
};
