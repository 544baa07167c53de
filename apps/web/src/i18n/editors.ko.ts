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
  'importPick.title': '가져올 오퍼레이션 선택',
  'importPick.text':
    '{source}에 오퍼레이션이 {total}개 있습니다. 이 플랜이 호출할 것을 찾아 주세요: 선택한 것만 가져옵니다.',
  'importPick.search': '검색',
  'importPick.searchPlaceholder': '경로, 메서드, 태그 또는 operationId',
  'importPick.tag': '태그',
  'importPick.allTags': '모든 태그',
  'importPick.method': '메서드',
  'importPick.allMethods': '모든 메서드',
  'importPick.selected': '{total}개 중 {selected}개 선택됨',
  'importPick.shown': '{count}개 표시',
  'importPick.selectAll': '모두 선택',
  'importPick.selectAllShown': '표시된 {count}개 선택',
  'importPick.selectNone': '선택 해제',
  'importPick.selectNoneShown': '표시된 {count}개 선택 해제',
  'importPick.noMatch': '검색어와 필터에 맞는 오퍼레이션이 없습니다.',
  'importPick.back': '뒤로',
  'importPick.import': '선택한 {count}개 가져오기',
};
